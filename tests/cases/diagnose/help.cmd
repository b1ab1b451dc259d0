diagnose --help
