# SNAP edge list
0 1
1	2 # trailing comment

2 0
5 5
