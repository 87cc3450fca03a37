from csolve.cli import run

run()
