(1 nil)
