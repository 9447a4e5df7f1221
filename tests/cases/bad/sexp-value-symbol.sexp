(a :value x 1)
