(a (inf . 3))
