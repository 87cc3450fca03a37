from csolve.program import run

run()
