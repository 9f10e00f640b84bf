"""Communications benchmark (issue 27): an email to 5,000 establishments, queued and sent on the
embedded default (SQLite, no broker: the sending runs in a thread of the process, as on the
one-command start; the console mail backend, its output discarded).

    python -m bench.communications [--establishments 5000] [--years 1] [--as-of DATE]
                                   [--seed 1] [--pack san-clemente] [--channel email]
                                   [--without-email-every 50]

Makes a fresh SQLite database in a temporary folder (or uses DATABASE_URL when it is set),
generates the synthetic program (bench/program.py) and sweeps it, so that the merge fields read
statuses and due dates, and gives every operator an email address but one in
`--without-email-every` (they get a letter instead), and reopens the establishments the
generator closed, so that the communication goes to every one; none of this is timed. Then times a
manager's task from the draft to the last recipient: the draft checked (merge fields, the
establishments its filter chooses), the confirmation (the recipients fixed and queued), the
sending followed until it is complete. Prints the wall time of each part, the recipients a
second, what was done, and whether the target (all of it in at most 2 minutes) is met.

Then the restart (`--no-restart` leaves it out): a legal notice to the same establishments is
queued, sent by a process of its own into a folder of mail files (Django's file backend),
which is killed with SIGKILL once half are done; `manage.py resume_communications`, in
another process, finishes it. The mail files are then read: how many messages each
establishment got (by Message-ID), how many got none, and how many got two (at most the one in
flight when the process died, delivery.py says). Nothing is asserted: the figures are printed
only.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import redirect_stdout
from datetime import date
from pathlib import Path

from bench.program import prepare_program

TARGET_SECONDS = 120.0
POLL_SECONDS = 0.5
SUBJECT = "Holiday grease season at {establishment_name}"
BODY = """Dear {operator_name},

The holidays bring more cooking and more grease to {establishment_address}. Scrape plates
into the trash, wipe pans before washing, and keep the grease interceptor pumped.

Your establishment's next date is {next_due_date}: {next_due_what}.
Open findings: {open_findings}.

{agency_name}, FOG program
"""


def _setup(folder: str) -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/bench-communications.sqlite3")
    os.environ.pop("FOGKEEPER_BROKER_URL", None)  # the embedded default: no broker
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    import django

    django.setup()


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().strip()
    except OSError:
        return "unknown"


def _prepare(args, as_of: date):
    from fogkeeper.compliance.runs import sweep_agency
    from fogkeeper.registry.models import Operator

    agency = prepare_program("Communications benchmark", args, as_of)
    print("  (this one measures the embedded default, SQLite, on purpose; DATABASE_URL overrides)")
    # every establishment open, so that the communication goes to all of them
    agency.establishments.update(closed_on=None)
    started = time.perf_counter()
    sweep_agency(agency, as_of=as_of)
    print(f"Swept in {time.perf_counter() - started:.1f} s (not part of the figures)")
    operators = list(Operator.objects.filter(agency=agency).order_by("pk"))
    for n, operator in enumerate(operators):
        skipped = args.without_email_every and n % args.without_email_every == 0
        operator.email = "" if skipped else f"operator-{operator.pk}@example.org"
    Operator.objects.bulk_update(operators, ["email"], batch_size=2000)
    return agency


def _wait(comm) -> float:
    """Seconds until the communication is no longer under way (its thread has finished)."""
    started = time.perf_counter()
    while True:
        comm.refresh_from_db()
        if not comm.underway:
            return time.perf_counter() - started
        time.sleep(POLL_SECONDS)


def _send(agency, args, as_of: date) -> None:
    from django.conf import settings

    from fogkeeper.communications.services import communication_draft, communication_send
    from fogkeeper.web.communications.forms import chosen

    tasks = "no broker" if settings.CELERY_TASK_ALWAYS_EAGER else "a broker"
    print(f"Mail backend {settings.EMAIL_BACKEND} (its output discarded); {tasks}")
    print(f"Load before: {_load()}")
    started = time.perf_counter()
    comm = communication_draft(
        agency=agency,
        kind="newsletter",
        channel=args.channel,
        subject=SUBJECT,
        body=BODY,
        filters={},
        chosen=chosen(agency, {}),
        site="http://127.0.0.1:8000/",
        as_of=as_of,
    )
    drafted = time.perf_counter() - started
    with open(os.devnull, "w") as sink, redirect_stdout(sink):
        comm = communication_send(communication=comm, chosen=chosen(agency, {}), on=as_of)
        queued = time.perf_counter() - started - drafted
        sending = _wait(comm)
    total = time.perf_counter() - started
    print(f"Load after: {_load()}")
    print(f"Draft checked ({comm.total:,} establishments chosen): {drafted:.1f} s")
    print(f"Confirmed (recipients fixed, queued): {queued:.1f} s")
    print(f"Sent (until complete): {sending:.1f} s, {comm.total / sending:,.0f} recipients/s")
    print(
        f"Status {comm.status}{': ' + comm.error if comm.error else ''}; {comm.sent:,} sent, "
        f"{comm.letter_only:,} letter only (no email address), {comm.skipped:,} skipped, "
        f"{comm.failed:,} failed"
    )
    met = "met" if total <= TARGET_SECONDS else "NOT met"
    print(
        f"Queued and sent to {comm.total:,} establishments in {total:.1f} s "
        f"(target <= {TARGET_SECONDS:.0f} s: {met})"
    )


def _child(args) -> None:
    """Send communication `--child` into the mail folder `--mail-dir` (the restart's worker);
    with `--resume`, finish it as `manage.py resume_communications` does."""
    _setup(os.environ["FOGKEEPER_BENCH_FOLDER"])
    from django.conf import settings
    from django.core.management import call_command

    from fogkeeper.communications.delivery import run_communication

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = args.mail_dir
    if args.resume:
        call_command("resume_communications")
    else:
        run_communication(args.child)


def _spawn(folder: str, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "FOGKEEPER_BENCH_FOLDER": folder}
    return subprocess.Popen([sys.executable, "-m", "bench.communications", *extra], env=env)


def _restart(agency, folder: str, as_of: date) -> None:
    from fogkeeper.communications import services
    from fogkeeper.communications.models import Recipient
    from fogkeeper.web.communications.forms import chosen

    services.queue = lambda comm: None  # queued for the child process below, not a thread
    everyone = chosen(agency, {})
    comm = services.communication_draft(
        agency=agency,
        kind="legal_notice",
        channel="email",
        subject=SUBJECT,
        body=BODY,
        filters={},
        chosen=everyone,
        site="http://127.0.0.1:8000/",
        as_of=as_of,
    )
    comm = services.communication_send(communication=comm, chosen=everyone, on=as_of)
    mail_dir = Path(folder) / "mail"
    worker = _spawn(folder, "--child", str(comm.pk), "--mail-dir", str(mail_dir))
    done = Recipient.objects.filter(communication=comm).exclude(state=Recipient.PENDING)
    while done.count() < comm.total // 2 and worker.poll() is None:
        time.sleep(0.2)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    killed_at = done.count()
    print(
        f"Restart: a legal notice to {comm.total:,}; its process killed (SIGKILL) after "
        f"{killed_at:,} were done"
    )
    _spawn(folder, "--resume", "--child", "0", "--mail-dir", str(mail_dir)).wait()
    comm.refresh_from_db()
    _read_mail(comm, mail_dir)


def _read_mail(comm, mail_dir: Path) -> None:
    """How many messages of `comm` each establishment got, from the mail files."""
    pattern = re.compile(rb"^Message-ID: <communication-%d-(\d+)@" % comm.pk, re.MULTILINE)
    got = Counter(
        m.group(1) for f in mail_dir.glob("*.log") for m in pattern.finditer(f.read_bytes())
    )
    emailed = comm.recipients.exclude(email="").count()
    twice = sum(1 for n in got.values() if n > 1)
    print(
        f"Resumed: status {comm.status}, {comm.sent:,} sent, {comm.letter_only:,} letter only, "
        f"{comm.failed:,} failed"
    )
    print(
        f"Mail files: {sum(got.values()):,} messages to {len(got):,} establishments "
        f"({emailed:,} emailed by the rows): {emailed - len(got):,} got none, {twice:,} got "
        f"two (at most the one in flight at the kill)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--establishments", type=int, default=5000)
    parser.add_argument("--years", type=int, default=1)
    parser.add_argument("--as-of", default="2026-06-30")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", default="san-clemente")
    parser.add_argument("--channel", default="email", choices=["email", "letter", "both"])
    parser.add_argument("--without-email-every", type=int, default=50)
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--mail-dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return _child(args)
    as_of = date.fromisoformat(args.as_of)
    with tempfile.TemporaryDirectory(prefix="fogkeeper-bench-") as folder:
        _setup(folder)
        agency = _prepare(args, as_of)
        _send(agency, args, as_of)
        if not args.no_restart:
            _restart(agency, folder, as_of)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
