(a :value -inf 1)
