(a 1 :value 3)
