"""What wrapgen knows about words, flags, commands and specific tools, as reviewable data.

Every stage reads the same entry: propose, check and promote ask the modules here, never a table
of their own. Each kind of knowledge is one data file under ``data/`` and one module that answers
questions about it:

==================  ==========================  ============================================
module              data file                   knows
==================  ==========================  ============================================
``commands``        ``commands.json``           what is no command (help, completion), what is
                                                never proposed (interactive, long-running), what
                                                is a mega-command (docs/contract.md §13), command ranking words
``words``           ``effects.json``,           read / write / destructive words, English verbs
                    ``verbs.json``,             and their forms, title words, JSON fields a
                    ``fields.json``             listing shows first
``flags``           ``flags.json``              noise flags, flags people reach for first
``tools``           ``tools.json``              per-tool and per-style facts the help cannot
                                                settle (curl takes no ``--x=v``; jq and ``--``)
``shells``          ``shells.json``             shells, interpreters, awk, xargs, ``env -S``,
                                                shell syntax (check's W007)
``dangerous_flags`` ``dangerous_flags.json``    flags that write files or run programs, the
                                                subcommands that run programs (W033), the
                                                environment that loads code (W031), and value
                                                guards (W030; propose leaves them out)
``secrets``         ``secrets.json``            what text that looks like a secret is (a line of
                                                /etc/shadow, a private key, a token): cut from
                                                help, refused in a pack (W035)
``trials``          ``trials.json``             what a trial's output means (writes,
                                                interactive, unreachable, context, usage) and
                                                the sample values of required args
(``wrapgen.usage``) ``usage_kinds.json``        an operand's kind from a placeholder, a variable's
                                                name or a value's look; bundled key letters
                                                (``tar xf``); prefixes that run the rest (sudo)
(``wrapgen.usage``) ``usage.json``              the usage table distilled from tldr-pages (CC BY
                                                4.0; ``scripts/usage_table.py``), not a word table
(propose)           ``exit_codes.json``         which documented exit statuses are answers
                                                ("no matches", "differences found") and which
                                                errors (read by ``wrapgen.propose.exitcodes``)
==================  ==========================  ============================================

The data format (``table.py`` loads and validates it)::

    {
      "about": "what this file knows and who reads it",
      "tables": {
        "<table>": {
          "about": "what an entry of this table means",
          "keyed_by_tool": false,              # optional; true: each group names its "tool"
          "groups": [
            {"why": "the reason for every entry of the group",
             "names": ["word", "other"],       # entries ...
             "value": 2.0},                    # ... with an optional shared value
            {"why": "...", "values": {"word": "its own value"}}   # or entries with a value each
          ]
        }
      },
      "exclusive": [["table_a", "table_b"]]   # optional: no entry may be in two of these
    }

Every entry carries its reason: the ``why`` of its group (a group is a set of entries that share
one reason). A file is read once (``functools.lru_cache``) and validated when read: an unknown
key, an empty reason, an entry twice in a table (per tool in a table keyed by tool), a key twice
in one JSON object, or an entry in two tables that exclude each other (a word both read and
write) is a ``KnowledgeError`` naming the file and the entry. The kind modules add checks of
their own (a noise flag ``no-X`` beside ``X``; a pattern that is no regular expression).

Where discovery could read a fact from the tool itself, the reason says why it does not: whether
a tool takes ``--x=v`` does not show in help text (curl's ``--max-time <seconds>`` reads like any
getopt tool's), and how jq treats ``--`` depends on its version, which only running a filter
would show.
"""
