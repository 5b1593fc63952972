#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stack.sh: the series of patches/ as a git branch, and back.
#
# patches/ holds one directory per mailing-list series, in the order of
# their names (NN-name): its cover letter (cover-letter, a mail's Subject
# line and text), its "series" file (the patches in their order, as
# quilt's), and one file per commit (its subject, message, a '---' line,
# its diffstat and its diff). Series apply one after the other to the
# base; git apply, never with fuzz.
#
#   stack.sh apply SRC          apply every patch to the tree SRC (no git)
#   stack.sh branch [DIR]       DIR (build/stack): a git repository of the
#                               base (tag "base") and, per series, an
#                               empty commit "--- NN-name" holding its
#                               cover letter, then a commit per patch.
#                               What tools/ has that the series doesn't
#                               comes last, as "WIP: tools/".
#   stack.sh save [DIR]         write patches/ and our files in tools/
#                               from that branch
#   stack.sh check              patches/ apply, leave tools/ as it is, and
#                               are what their branch writes back
#   stack.sh commits DIR        the branch of the series alone, each commit
#                               signed off by git's user.name and
#                               user.email (make patches)

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
base=$top/build/base
# The temporary files and directories to remove at exit, whatever ends it.
TMPS=()
trap 'rm -rf "${TMPS[@]}"' EXIT
# What a user's git config would change in a diff: not ours.
gitq() {
	git -c diff.noprefix=false -c diff.mnemonicPrefix=false -c core.quotePath=true \
		-c color.ui=false -c commit.gpgsign=false "$@"
}

die() {
	echo "stack.sh: $*" >&2
	exit 1
}

# The series directories, in order, into the array DIRS.
series_dirs() {
	local d

	DIRS=()
	for d in "$top"/patches/[0-9][0-9]-*/; do
		[ -d "$d" ] || die "no series in patches/"
		[ -f "$d/series" ] || die "${d#"$top"/} has no series file"
		DIRS+=("${d%/}")
	done
}

# The patch files of series directory $1, in its order, into PATCHES;
# every file of the directory but its cover letter and series file is
# one of them.
series_patches() {
	local p f

	PATCHES=()
	while read -r p; do
		p=${p%%#*}
		p=${p%"${p##*[![:space:]]}"}
		[ -n "$p" ] || continue
		[ -f "$1/$p" ] || die "${1#"$top"/}/series names $p, which is not there"
		PATCHES+=("$1/$p")
	done < "$1/series"
	for f in "$1"/*; do
		case "${f##*/}" in
		series|cover-letter) continue ;;
		esac
		[[ " ${PATCHES[*]} " == *" $f "* ]] ||
			die "${f#"$top"/} is in no series file"
	done
}

# apply_one TREE PATCH: git apply outside any repository (TREE may sit
# inside this one's work tree), exact context only.
apply_one() {
	(cd "$1" && GIT_CEILING_DIRECTORIES=$(dirname "$1") \
		git apply --whitespace=nowarn "$2") ||
		die "${2#"$top"/} does not apply"
}

identity() {
	local name email
	name=$(git -C "$top" config user.name || true)
	email=$(git -C "$top" config user.email || true)
	if [ "$SIGNOFF" = 1 ] && { [ -z "$name" ] || [ -z "$email" ]; }; then
		die "no git identity: set git config user.name and user.email"
	fi
	git -C "$1" config user.name "${name:-stack}"
	git -C "$1" config user.email "${email:-stack@localhost}"
}

# A sum of everything in patches/: save refuses to overwrite patches/
# that changed since the branch was made from them.
patches_sum() {
	(cd "$top" && find patches -type f | LC_ALL=C sort | xargs sha1sum | sha1sum | cut -d' ' -f1)
}

# Our files in tools/: every one is some series' (untracked ones too,
# but what .gitignore ignores).
tools_files() {
	(cd "$top" && git ls-files -co --exclude-standard tools)
}

# The files the series adds under tools/ at the branch's head.
series_files() {
	git -C "$1" diff --name-only --no-renames --diff-filter=A base HEAD -- tools
}

cmd_apply() {
	local src d p
	src=$(cd "$1" && pwd) || die "apply: no tree $1"
	series_dirs
	for d in "${DIRS[@]}"; do
		series_patches "$d"
		for p in "${PATCHES[@]}"; do
			apply_one "$src" "$p"
		done
	done
}

# make_branch DIR: the base and the series as commits, in DIR.
make_branch() {
	local dir=$1 d p name signoff=
	[ -f "$base/.base-version" ] || die "no base in build/base: run make first"
	[ "$SIGNOFF" = 1 ] && signoff=-s
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -a "$base/." "$dir/"
	git -C "$dir" init -q -b stack
	identity "$dir"
	# checkpatch.pl --strict leaves its CamelCase cache here: not ours.
	echo ".checkpatch-camelcase.*" >> "$dir/.git/info/exclude"
	git -C "$dir" add -A
	gitq -C "$dir" commit -q -m base
	git -C "$dir" tag base
	series_dirs
	for d in "${DIRS[@]}"; do
		name=${d##*/}
		[ -f "$d/cover-letter" ] || die "patches/$name has no cover-letter"
		printf -- '--- %s\n\n' "$name" | cat - "$d/cover-letter" > "$dir/.git/stack-msg"
		gitq -C "$dir" commit -q --allow-empty --cleanup=whitespace -F .git/stack-msg
		series_patches "$d"
		for p in "${PATCHES[@]}"; do
			git -C "$dir" mailinfo -k "$dir/.git/stack-body" "$dir/.git/stack-diff" \
				< "$p" > "$dir/.git/stack-info"
			{
				sed -n 's/^Subject: //p' "$dir/.git/stack-info"
				echo
				cat "$dir/.git/stack-body"
			} > "$dir/.git/stack-msg"
			(cd "$dir" && git apply --index --whitespace=nowarn "$p") ||
				die "${p#"$top"/} does not apply"
			gitq -C "$dir" commit -q $signoff --cleanup=whitespace -F .git/stack-msg
		done
	done
	rm -f "$dir"/.git/stack-msg "$dir"/.git/stack-body "$dir"/.git/stack-diff \
		"$dir"/.git/stack-info
}

cmd_branch() {
	local dir=${1:-$top/build/stack} f
	if [ -d "$dir/.git" ] && [ -z "$FORCE" ]; then
		# Nothing the user had is lost: a branch with work of its own
		# is saved or removed first.
		[ -z "$(git -C "$dir" status --porcelain)" ] ||
			die "$dir has uncommitted changes: commit and save them, or remove it"
		[ "$(git -C "$dir" rev-parse HEAD)" = "$(cat "$dir/.git/stack-head" 2>/dev/null)" ] ||
			die "$dir has commits not saved: stack.sh save, or remove it"
	fi
	make_branch "$dir"
	patches_sum > "$dir/.git/stack-patches"
	series_files "$dir" > "$dir/.git/stack-files"
	# Our files as tools/ has them now, where the series has them
	# otherwise, and those no series has yet: a new file is in the
	# WIP commit too.
	while read -r f; do
		if [ -f "$top/$f" ]; then
			cmp -s "$top/$f" "$dir/$f" || cp "$top/$f" "$dir/$f"
		else
			rm "$dir/$f"
		fi
	done < "$dir/.git/stack-files"
	tools_files | sort | comm -23 - <(sort "$dir/.git/stack-files") | while read -r f; do
		[ -f "$top/$f" ] || continue
		mkdir -p "$(dirname "$dir/$f")"
		cp -p "$top/$f" "$dir/$f"
	done
	gitq -C "$dir" add -A
	if ! git -C "$dir" diff --cached --quiet; then
		gitq -C "$dir" commit -q -m "WIP: tools/" -m "What tools/ has that the series doesn't: fold it into the commits it belongs to."
		echo "  STACK  $dir: the series, then your tools/ edits (WIP: tools/):"
		git -C "$dir" show --stat --format= HEAD | sed 's/^/         /'
	else
		echo "  STACK  $dir: the series ($(git -C "$dir" rev-list --count base..HEAD) commits)"
	fi
	git -C "$dir" rev-parse HEAD > "$dir/.git/stack-head"
	tools_sums > "$dir/.git/stack-tools"
}

# The sums of our files in tools/, as they are: save refuses to overwrite
# one edited since the branch was made.
tools_sums() {
	(cd "$top" && tools_files | LC_ALL=C sort | xargs -r sha1sum)
}

# A file name from a subject, as git format-patch makes one.
slug() {
	echo "$1" | tr 'A-Z' 'a-z' | tr -d "'" | sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' \
		-e 's/^\(.\{1,60\}\).*/\1/' -e 's/-$//'
}

# write_patches DIR OUT: the series of DIR's branch as patches/ holds
# them, into OUT (made here).
write_patches() {
	local dir=$1 out=$2 c subject name='' n=0 file
	mkdir -p "$out"
	for c in $(git -C "$dir" rev-list --reverse base..HEAD); do
		subject=$(git -C "$dir" log -1 --format=%s "$c")
		case "$subject" in
		"--- "*)
			name=${subject#--- }
			echo "$name" | grep -qE '^[0-9]{2}-[a-z0-9-]+$' ||
				die "series name '$name': NN-name, in lower case"
			mkdir "$out/$name"
			git -C "$dir" log -1 --format=%b "$c" > "$out/$name/cover-letter"
			printf '# The patches of this series, in order (quilt'"'"'s series file).\n' \
				> "$out/$name/series"
			n=0
			continue
			;;
		"WIP:"*|"fixup!"*|"squash!"*|"amend!"*)
			die "commit '$subject' is to be folded into another first"
			;;
		esac
		[ -n "$name" ] || die "a commit before the first series' cover commit"
		# What would not survive a mail: no change, a binary file, a
		# message line that starts a diff (git mailinfo cuts there).
		[ -n "$(git -C "$dir" diff-tree --no-commit-id -r "$c")" ] ||
			die "commit '$subject' changes nothing"
		! gitq -C "$dir" show --format= --numstat "$c" | grep -q '^-' ||
			die "commit '$subject' changes a binary file: not in a mailing-list series"
		! git -C "$dir" log -1 --format=%b "$c" | grep -qE '^(---|diff -|Index: )' ||
			die "commit '$subject': a message line starts with ---, diff - or Index:"
		n=$((n + 1))
		file=$(printf '%04d-%s.patch' "$n" "$(slug "$subject")")
		{
			echo "Subject: $subject"
			echo
			git -C "$dir" log -1 --format=%b "$c" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
			echo "---"
			gitq -C "$dir" show --no-ext-diff --format= --no-renames --stat=72 "$c"
			echo
			gitq -C "$dir" show --no-ext-diff --format= --no-renames "$c" | grep -v '^index ' || true
		} > "$out/$name/$file"
		echo "$file" >> "$out/$name/series"
	done
	[ -n "$name" ] || die "no series in $dir"
}

cmd_save() {
	local dir=${1:-$top/build/stack} out f
	[ -d "$dir/.git" ] || die "no branch in $dir: stack.sh branch first"
	[ -z "$(git -C "$dir" status --porcelain)" ] ||
		die "$dir has uncommitted changes: commit them first"
	if [ -d "$dir/.git/rebase-merge" ] || [ -d "$dir/.git/rebase-apply" ] ||
	   [ -e "$dir/.git/CHERRY_PICK_HEAD" ] || ! git -C "$dir" symbolic-ref -q HEAD > /dev/null; then
		die "$dir is in the middle of a rebase or on no branch: finish it first"
	fi
	# Nothing in patches/ or tools/ is lost: edits made there since the
	# branch was made would be.
	if [ -z "$FORCE" ] && [ "$(patches_sum)" != "$(cat "$dir/.git/stack-patches" 2>/dev/null)" ]; then
		die "patches/ changed since $dir was made from it: make patches-branch again (FORCE=1 to overwrite patches/ anyway)"
	fi
	if [ -z "$FORCE" ] && ! tools_sums | cmp -s - "$dir/.git/stack-tools"; then
		die "tools/ changed since $dir was made: make patches-branch again, or FORCE=1 to overwrite tools/ anyway"
	fi
	out=$top/patches.new
	rm -rf "$out"
	TMPS+=("$out")
	write_patches "$dir" "$out"
	rm -rf "$top"/patches/[0-9][0-9]-*/
	mv "$out"/* "$top/patches/"
	rmdir "$out"
	# Our files as the series leaves them; those it no longer adds go.
	series_files "$dir" > "$dir/.git/stack-files.new"
	while read -r f; do
		mkdir -p "$(dirname "$top/$f")"
		cmp -s "$dir/$f" "$top/$f" || { cp "$dir/$f" "$top/$f"; echo "  SAVE   $f"; }
		chmod "$(stat -c %a "$dir/$f")" "$top/$f"
	done < "$dir/.git/stack-files.new"
	if [ -f "$dir/.git/stack-files" ]; then
		sort "$dir/.git/stack-files.new" | comm -23 <(sort "$dir/.git/stack-files") - |
		while read -r f; do
			rm -f "$top/$f"
			echo "  GONE   $f"
		done
	fi
	mv "$dir/.git/stack-files.new" "$dir/.git/stack-files"
	git -C "$dir" rev-parse HEAD > "$dir/.git/stack-head"
	patches_sum > "$dir/.git/stack-patches"
	tools_sums > "$dir/.git/stack-tools"
	echo "  SAVED  patches/: $(ls -d "$top"/patches/[0-9][0-9]-*/ | wc -l) series, $(git -C "$dir" rev-list --count --no-merges base..HEAD) commits"
}

# check_tools DIR: the series of DIR's branch leaves our files in tools/
# as they are.
check_tools() {
	local bad=0 f
	while read -r f; do
		if ! cmp -s "$1/$f" "$top/$f"; then
			echo "stack.sh: tools/ has ${f#tools/} other than the series leaves it" >&2
			bad=1
		fi
	done < <(series_files "$1")
	while read -r f; do
		echo "stack.sh: tools/${f#tools/} is in no series" >&2
		bad=1
	done < <(tools_files | sort | comm -23 - <(series_files "$1" | sort))
	[ $bad = 0 ] || die "put the edits into their patches: make patches-branch, fold the WIP commit, make patches-save"
}

# Also: patches/ is what its own branch writes back, byte for byte, so
# that a round trip through the branch changes nothing by itself.
cmd_check() {
	local dir
	dir=$(mktemp -d)
	TMPS+=("$dir")
	make_branch "$dir/b" > /dev/null
	check_tools "$dir/b"
	write_patches "$dir/b" "$dir/out"
	if ! diff -r -x '.*' "$top/patches" "$dir/out" > "$dir/diff"; then
		head -20 "$dir/diff" >&2
		die "patches/ is not as its branch writes it: make patches-branch, then make patches-save"
	fi
}

cmd_commits() {
	[ -n "$1" ] || die "commits: no directory"
	SIGNOFF=1 make_branch "$1"
	check_tools "$1"
}

case "$1" in
apply)	cmd_apply "$2" ;;
branch)	cmd_branch "$2" ;;
save)	cmd_save "$2" ;;
check)	cmd_check ;;
commits) cmd_commits "$2" ;;
*)	sed -n '4,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac
