"""A switch that turns a tool into a server ("Enable JSON-RPC/XML-RPC server", "run as daemon") is
noise, and makes no mode however many uses pass it without an operand; the uses that pass it are no
evidence of another mode either (the server's own --rpc-secure). Before, a downloader's pack had the
verbs `enable-rpc` and `enable-rpc.rpc-secure`: a server started by a call."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.propose import propose
from wrapgen.propose.args import flag_noise

URL = UsedOperand("url", "url")
ENABLE_RPC = Flag(long="--enable-rpc", description="Enable JSON-RPC/XML-RPC server.")
RPC_SECURE = Flag(long="--rpc-secure", description="RPC transport will be encrypted by SSL/TLS.")
DIR = Flag(
    long="--dir",
    short="-d",
    takes_value=True,
    value_name="DIR",
    description="The directory to store the downloaded file.",
)


def test_a_switch_that_starts_a_server_is_noise():
    assert flag_noise(ENABLE_RPC)
    assert flag_noise(Flag(long="--detach", short="-D", description="Run as daemon."))
    assert (
        flag_noise(Flag(long="--rpc-user", takes_value=True, description="Set RPC user.")) is None
    )
    assert flag_noise(Flag(long="--mirror", description="Use the nearest server.")) is None
    # where a command runs is no server it starts
    side = Flag(long="--server-side", description="If true, apply runs in the server, not here.")
    assert flag_noise(side) is None
    assert flag_noise(Flag(long="--remote", description="Run the query on the server.")) is None


def test_server_uses_make_no_mode():
    root = Command(
        path=(),
        usage=("wgget [OPTIONS] [URI]...",),
        flags=(DIR, ENABLE_RPC, RPC_SECURE),
        positionals=(Positional("URI", required=False, variadic=True),),
    )
    uses = (
        Use(path=(), operands=(URL,), count=4),
        Use(path=(), flags=("--enable-rpc", "--rpc-secure"), count=3),
        Use(path=(), flags=("--enable-rpc",), count=3),
        Use(path=(), flags=("--dir",), valued=("--dir",), operands=(URL,), count=2),
    )
    usage = (UsageEvidence(tool="wgget", source="tldr-pages", uses=uses),)
    manifest = propose(Tool(name="wgget", root=root), usage=usage).manifest
    assert "wgget" in manifest["verbs"]
    for name, verb in manifest["verbs"].items():
        assert "--enable-rpc" not in {str(t).split("=")[0] for t in verb["cli"]}, name
        assert "rpc" not in name
