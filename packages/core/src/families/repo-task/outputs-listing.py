# Lists what the agent wrote at a repository task's declared outputs: every file (at most 50) with its
# size and sha256, and the content of small text files and images, for the attempt page. argv[1]: JSON
# list of declared outputs relative to the repository root (the current directory); argv[2]: the largest
# file whose content is carried.
#
# The scorer runs it in the sandbox after the agent stopped, inside its probe's command
# (`python3 -I -c <text>`), so it comes from the harness. Standard library only.
#
# Only what follows the line below is sent (scripts/lib/python-modules.ts); after editing, run
# `npm run python:generate`.
# ---- sent from the next line on ----

import base64, hashlib, json, os, sys

declared = json.loads(sys.argv[1])
cap = int(sys.argv[2])
IMAGES = {'.png': 'image/png', '.svg': 'image/svg+xml', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
          '.gif': 'image/gif'}
files, budget = [], 6 * cap

def describe(path):
    global budget
    entry = {'path': path}
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        entry['error'] = e.strerror or 'unreadable'
        return entry
    entry['bytes'] = len(data)
    entry['sha256'] = hashlib.sha256(data).hexdigest()
    ext = os.path.splitext(path)[1].lower()
    if len(data) <= cap and len(data) <= budget:
        if ext in IMAGES:
            entry['mime'] = IMAGES[ext]
            entry['base64'] = base64.b64encode(data).decode()
            budget -= len(data)
        else:
            try:
                entry['text'] = data.decode('utf-8')
                budget -= len(data)
            except UnicodeDecodeError:
                pass
    return entry

for out in declared:
    if out.endswith('/'):
        for root, dirs, names in os.walk(out):
            dirs.sort()
            for name in sorted(names):
                if len(files) < 50:
                    files.append(describe(os.path.join(root, name)))
    elif os.path.isfile(out) and len(files) < 50:
        files.append(describe(out))
print(json.dumps({'files': files}))
