config walk/configured/judged
