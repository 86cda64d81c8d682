a=b+c*d-e/f%g
b = x==y&&z!=w||!v
c = x<=y
d = x>=y ? x<y : x>y
e = a-b
f = a - b
g = ( 1+2 )*3
