a = f( 1 , 2 )
b = f (x...)
c = b . c [ 0 ] . d
d = b [ * ] . c
e = b.*.c[0]
f = a.* [0]
g = "${x}" [0]
h = { a = 1 } [0]
i = { }
j = [ ]
k = {a=1,b=[2]}
l = {a:1}
m = provider :: aws :: arn_parse(x)
n = [for x in y:x]
o = {for k,v in x:k=>v if v}
p = [for x in (y): x]
q = [1,2 , 3 ,]
r = x.0.y
s = (x) [0]
