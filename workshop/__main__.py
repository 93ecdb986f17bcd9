from workshop.cli import main

main()
