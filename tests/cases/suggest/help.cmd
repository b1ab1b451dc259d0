suggest --help
