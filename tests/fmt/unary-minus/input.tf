a = - 1
b = x ? - 1 : - 2
c = [- 1, - 2]
d = f(- 1)
e = 1 - -x
f = x * - 1
g = x == - 1
h = {for x in y: x => - x if - x}
i = "a${- 1}"
j = [/* c */ - 1]
k = - - 1
l = !- 1
m = ! x
n = [
  - 1,
]
o = (x) -1
