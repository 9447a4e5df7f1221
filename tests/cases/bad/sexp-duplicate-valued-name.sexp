((a :value 3) (a :value 4))
