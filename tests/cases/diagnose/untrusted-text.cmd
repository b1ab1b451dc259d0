printf 'starting\n::error::injected \033[2J\007 CUDA out of memory\n' | "$1" diagnose --log - diagnose/untrusted-text.json
