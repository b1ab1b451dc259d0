check --color never --no-script --format junit --quiet compiler-end-of-support/run | grep -c 'gets no new releases'
