"""The `factprobe` command: argument parsing and one function per subcommand. May import every layer."""
