check --color never --no-script --stdin-filename walk/tree/sub/piped.yaml - walk/tree/b.yml < walk/tree/a.yaml
