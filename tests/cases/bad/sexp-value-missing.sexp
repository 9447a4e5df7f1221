(a :value)
