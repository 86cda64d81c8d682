a = 1 # x
bbbbbb = "é" # y
c = 3
# z
d = 4 # w
f = [1, # v
  2]
g = 1 // u
hh = 2 # t
x {
  a = 1 # inner
} # after
y = 1 /* not a trailing comment cell */
