(:chance :weights)
