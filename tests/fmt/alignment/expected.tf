a   = 1
bbb = 2

cc = 3
d  = 4
# a comment line breaks the run
eeee = 5
f    = 6
g = [
1]
hhhhh = 7
i     = 8
jj {
}
k = 9
ooo = {
  p            = 1
  qqq          = 2
  "quoted key" = 3
}
r     = 1 /* block comment */
ssss  = 2
t     = <<EOT
heredoc in the run
EOT
uuuuu = 1
v = "a ${b
} c"
ww = 1
x  = { a = 1 }
yyyyyy = {
}
é  = 1
ab = 2
z  = 1
