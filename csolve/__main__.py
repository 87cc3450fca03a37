from csolve.cli import main

main()
