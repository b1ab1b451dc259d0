check --no-script --diff fix/notebook.ipynb
