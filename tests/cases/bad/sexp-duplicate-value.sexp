(a :value 1 :value 2 3 4)
