# Sourced by the composite tasks' staging scripts (click-c01, click-c02): the identity and message of the
# made-up ports of 0ef55fda, which carry upstream's author and message and a made-up committer.
P=$GITBENCH/scripts/hard-ports/click-bp05
export GIT_AUTHOR_NAME='Andreas Backx' GIT_AUTHOR_EMAIL='AndreasBackx@users.noreply.github.com' GIT_AUTHOR_DATE='1730666311 +0000'
export GIT_COMMITTER_NAME='Release Maintainer' GIT_COMMITTER_EMAIL='releases@example.org'
msg='Close contexts created during shell completion #2644. (#2800)

Co-authored-by: akhil-vempali <avempali@atlassian.com>'
