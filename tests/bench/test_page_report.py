"""The page benchmark's report (bench/page_report.py): locust's CSV read, and the table and
verdicts printed from it, without a server."""

from bench.page_report import Run, cell, other_errors, read_stats, run_line, table, verdicts

HEADER = (
    "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,"
    "Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,"
    "50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%"
)
PAGES = ["dashboard", "establishment", "portal home"]


def row(name: str, count: int, p50, p95, failures: int = 0) -> dict:
    return {
        "Name": name,
        "Request Count": str(count),
        "Failure Count": str(failures),
        "50%": str(p50),
        "95%": str(p95),
    }


def run(users: int, wait: float, *rows: dict, seconds: float = 20) -> Run:
    return Run(users, wait, seconds, (1.5, 1.25, 1.0), {r["Name"]: r for r in rows})


def test_it_reads_locusts_statistics_by_request_name(tmp_path):
    csv = tmp_path / "locust_stats.csv"
    csv.write_text(
        HEADER
        + "\nGET,dashboard,40,1,30,35,10,90,5000,2.0,0.05,30,32,34,36,60,80,85,90,90,90,90"
        + "\n,Aggregated,40,1,30,35,10,90,5000,2.0,0.05,30,32,34,36,60,80,85,90,90,90,90\n"
    )
    stats = read_stats(csv)
    assert list(stats) == ["dashboard", "Aggregated"]
    assert stats["dashboard"]["95%"] == "80" and stats["dashboard"]["Failure Count"] == "1"


def test_a_cell_is_p50_over_p95_with_the_errors_after_them():
    assert cell(row("dashboard", 10, "41", "65.4")) == "41/65"
    assert cell(row("dashboard", 10, "41", "65", failures=2)) == "41/65 (2 err)"
    assert cell(row("dashboard", 0, "N/A", "N/A")) == "-"
    assert cell(None) == "-"


def test_the_table_has_a_column_per_run_and_the_queries_of_each_page():
    runs = [
        run(20, 5, row("dashboard", 10, 40, 60), row("portal home", 4, 15, 30)),
        run(100, 5, row("dashboard", 50, 45, 120), row("establishment", 30, 90, 180)),
        run(20, 0, row("dashboard", 300, 900, 1500)),
    ]
    queries = {"dashboard": (15, 200), "establishment": (22, 200), "portal home": (7, 302)}
    lines = table(PAGES, runs, queries)
    assert lines[0].split("|")[1:] == [
        "      20 users ",
        "     100 users ",
        " 20 users no wait ",
        " queries",
    ]
    assert "p50/p95 ms" in lines[1]
    cells = [[c.strip() for c in line.split("|")] for line in lines[2:]]
    assert cells == [
        ["dashboard", "40/60", "45/120", "900/1500", "15"],
        ["establishment", "-", "90/180", "-", "22"],
        ["portal home", "15/30", "-", "-", "7 (HTTP 302)"],
    ]


def test_a_runs_line_says_its_load_average_and_pages_a_second():
    line = run_line(run(20, 0, row("dashboard", 300, 900, 1500), row("login", 20, 1, 2)), PAGES)
    assert "20 users no wait" in line and "no wait" in line
    assert "load average at start 1.50 1.25 1.00" in line
    assert "300 pages, 0 errors, 15.0 pages a second" in line  # the sign-ins are no pages
    thinking = run_line(run(100, 5, row("dashboard", 10, 40, 60)), PAGES)
    assert "think time 2.5 to 7.5 s" in thinking


def test_the_verdicts_take_the_most_users_with_think_time_and_the_saturated_run():
    runs = [
        run(20, 5, *(row(p, 10, 50, 900) for p in PAGES)),
        run(100, 5, *(row(p, 10, 50, 150 + i) for i, p in enumerate(PAGES))),
        run(20, 0, *(row(p, 400, 500, 900) for p in PAGES)),
    ]
    p95, saturated = verdicts(PAGES, runs, workers=2)
    assert "p95 at 100 users with think time: worst 152 ms (portal home)" in p95
    assert p95.endswith("within target")
    assert "60.0 pages a second on 2 workers; target >= 60: within target" in saturated


def test_a_page_over_target_with_errors_or_without_requests_is_over_target():
    slow = [run(100, 5, *(row(p, 10, 50, 250) for p in PAGES))]
    assert verdicts(PAGES, slow, 2)[0].endswith("OVER target")
    failing = [run(100, 5, *(row(p, 10, 50, 100, failures=1) for p in PAGES))]
    assert verdicts(PAGES, failing, 2)[0].endswith("OVER target")
    partial = [run(100, 5, row("dashboard", 10, 50, 100))]
    (line,) = verdicts(PAGES, partial, 2)
    assert "no requests of establishment, portal home" in line and line.endswith("OVER target")
    slow_saturated = [run(20, 0, row("dashboard", 100, 500, 900))]
    assert verdicts(PAGES, slow_saturated, 2)[0].endswith("OVER target")


def test_the_sign_ins_errors_are_said_apart_from_the_pages():
    failed = run(20, 5, row("dashboard", 10, 40, 60), row("login", 40, 200, 300, failures=3))
    assert other_errors(failed, PAGES) == ["    (login: 3 errors of 40)"]
