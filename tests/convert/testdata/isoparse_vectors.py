# Generates isoparse_vectors.json: strings and python-dateutil's isoparse(s).isoformat() (null
# where isoparse rejects the string)
# (run with dateutil 2.9 from this folder: python3 isoparse_vectors.py). Hand-made forms of
# client-reference 4.2 combined, then mutated at random; a fixed sample is kept.
import random, json
from dateutil import parser
random.seed(7)
def ok(s):
    try:
        return parser.isoparse(s).isoformat()
    except Exception:
        return None
dates=["2020","1234","0000","0001","9999","+123"," 123","-123","2020-01","2020-13","2020-1 ","202001","20200101","2020-01-01","2020-02-29","2021-02-29","2020-00-10","2020-W01","2020W01","2020-W01-1","2020W017","2020-W53-7","9999-W52-7","9999-W53-7","0001-W01-1","2020-W1","2020W1","2020-W00","2020-W54","2020-W01-8","2020-W011","2020W01-1","2020-001","2020001","2020-366","2021-366","2020-000","12345","123456","2020-","2020-0","2020--1-01","2020-01-1","2020-1-01","9999-12-31","2020-12-31"]
seps=["","T"," ","x","_","-",":","é"]
times=["","10","1","10:30","1030","10:3","10:30:00","103000","10:30:00.5","10:30:00,123456789","24:00","24:00:00","24:00:01","24","23:59:60","25:00","10:60","1030:00","10:3045","+01","Z","z","10Z","10+01","10+01:30","10+0130","10-01:3","10+24","10+23:59","10+00:60","10+0","10.5","10:30.5","10:30:00.","10:30:00Zx","10 ","  ","10:30+-1","10:30:00+01-05"]
cands=set()
for d in dates:
    cands.add(d)
    for s in seps:
        for t in times:
            cands.add(d+s+t)
alphabet="0123456789-:TWZz+., _x"
base=sorted(cands)
for i in range(20000):
    s=list(random.choice(base))
    for _ in range(random.randint(1,3)):
        op=random.random()
        if op<0.4 and s: s[random.randrange(len(s))]=random.choice(alphabet)
        elif op<0.7: s.insert(random.randint(0,len(s)),random.choice(alphabet))
        elif s: del s[random.randrange(len(s))]
    cands.add("".join(s))
out=[[c, ok(c)] for c in sorted(cands)]
true=[x for x in out if x[1] is not None]; false=[x for x in out if x[1] is None]
random.seed(3)
out=sorted(random.sample(true, 1200) + random.sample(false, 1800))
json.dump(out, open("isoparse_vectors.json", "w"), indent=0)
print(len(out), sum(1 for c,v in out if v))
