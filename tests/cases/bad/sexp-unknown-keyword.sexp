(a :val 3 1)
