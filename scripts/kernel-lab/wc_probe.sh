L=scripts/kernel-lab/target
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
$L/poll_lab 20000
cfgs=()
for round in 1 2; do for d in 0 300 600; do for m in 0 1 2 3 4; do cfgs+=("1 0 0 0 4 $d $m"); done; done; done
for d in 0 600; do for m in 0 1 3; do cfgs+=("1 0 0 0 128 $d $m"); done; done
for d in 0 600; do for m in 0 1; do cfgs+=("4 1 0 400 4 $d $m"); done; done
$L/floor_lab 20000 "${cfgs[@]}"
} > $OUT/wc.txt 2>&1; cat $OUT/wc.txt
