module chatcrypt/bench-listener

go 1.26
