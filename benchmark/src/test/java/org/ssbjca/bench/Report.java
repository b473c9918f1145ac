package org.ssbjca.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The figures of one run, printed as a table and written as docs/benchmarks.md. */
final class Report {

    /** The statement profiles' table head (pg_stat_statements with track_planning). */
    private static final String PROFILE_HEAD = "| calls per message | mean ms | plans per call | mean plan ms |"
            + " statement |\n"
            + "|---:|---:|---:|---:|---|\n";

    /** One measured figure. */
    record Row(String section, String what, String value, String note) {
    }

    /**
     * One target.
     *
     * @param point the point of issue 49 that set it, by which its targets are listed first; 0: an earlier issue's
     * @param reach when missed, the same run's measurement that shows it out of reach; null: none does
     */
    record Target(String what, String wanted, String measured, boolean met, int point, String reach) {

        boolean current() {
            return point > 0;
        }
    }

    /**
     * A headline ratio of ssb-jca's, from interleaved rounds, against each reference the phase measured (null: not
     * measured there).
     *
     * @param toArtemis ssb-jca against Artemis
     * @param toCeiling ssb-jca against the database's ceiling (the plain JDBC loop with the same threads)
     * @param toLoopInWildFly ssb-jca against the loop inside WildFly running ssb-jca's own RECEIVE
     * @param artemisToCeiling Artemis against the same ceiling: how fast the database was against Artemis that day
     */
    record Headline(String what, Spread toArtemis, Spread toCeiling, Spread toLoopInWildFly,
            Spread artemisToCeiling) {
    }

    final List<Row> rows = new ArrayList<>();
    final List<Target> targets = new ArrayList<>();
    final List<Headline> headlines = new ArrayList<>();
    /** The machine's speed in this run ({@link MachineSpeed} and the idle round trip), printed first. */
    final List<String> speed = new ArrayList<>();
    final Map<String, String> machine = new LinkedHashMap<>();
    final List<String> notes = new ArrayList<>();
    final List<String> profile = new ArrayList<>();
    /** The statement profile of the outbound phase (every statement, the senders' inserts included). */
    final List<String> outboundProfile = new ArrayList<>();
    /** The statement profile of the reply phase (the readers' RECEIVE and the replies' SEND). */
    final List<String> replyProfile = new ArrayList<>();
    /** The statement profile of ssb-jca's latency run (how many RECEIVEs each message cost at 100 msg/s). */
    final List<String> latencyProfile = new ArrayList<>();
    /** The statement profile of ssb-jca's first drain by 8 readers in the scaling phase. */
    final List<String> scalingProfile = new ArrayList<>();
    /** PostgreSQL's CPU by phase of its work (the profile phase, {@link PerfProfile}): table rows. */
    final List<String> perfProfile = new ArrayList<>();
    /** WildFly's readers by component and by delivery step (the profile phase, {@link JfrProfile}): table rows. */
    final List<String> jfrProfile = new ArrayList<>();

    void row(String section, String what, String value, String note) {
        rows.add(new Row(section, what, value, note == null ? "" : note));
        System.out.printf(Locale.ROOT, "[benchmark] %-12s %-58s %14s  %s%n", section, what, value,
                note == null ? "" : note);
    }

    /** An earlier issue's target. */
    void target(String what, String wanted, String measured, boolean met) {
        targets.add(new Target(what, wanted, measured, met, 0, null));
    }

    /** One of issue 49's targets, set by its point {@code point} (1 to 3). */
    void target49(int point, String what, String wanted, String measured, boolean met) {
        target49(point, what, wanted, measured, met, null);
    }

    /** One of issue 49's targets, with what shows it out of reach when missed ({@code reach}, may be null). */
    void target49(int point, String what, String wanted, String measured, boolean met, String reach) {
        targets.add(new Target(what, wanted, measured, met, point, reach));
    }

    void headline(Headline h) {
        headlines.add(h);
        System.out.printf(Locale.ROOT, "[benchmark] headline %s: %s%n", h.what(), cells(h));
    }

    void speed(String line) {
        speed.add(line);
        System.out.println("[benchmark] speed " + line);
    }

    /** @return the headline's cells, "—" where not measured */
    private static List<String> cells(Headline h) {
        return java.util.stream.Stream.of(h.toArtemis(), h.toCeiling(), h.toLoopInWildFly(), h.artemisToCeiling())
                .map(s -> s == null ? "—" : s.text()).toList();
    }

    static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f msg/s", perSecond);
    }

    static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f×", r);
    }

    static String ms(double millis) {
        return String.format(Locale.ROOT, "%.2f ms", millis);
    }

    String table() {
        StringBuilder b = new StringBuilder();
        speed.forEach(l -> b.append("speed: ").append(l).append('\n'));
        for (Headline h : headlines) {
            b.append(String.format(Locale.ROOT, "headline %-40s %s%n", h.what(), String.join(" | ", cells(h))));
        }
        b.append(String.format(Locale.ROOT, "%-12s | %-58s | %16s | %s%n", "section", "what", "figure", "note"));
        b.append("-".repeat(120)).append('\n');
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "%-12s | %-58s | %16s | %s%n", r.section, r.what, r.value, r.note));
        }
        b.append('\n');
        for (boolean current : new boolean[] {true, false}) {
            for (Target t : targets) {
                if (t.current() == current) {
                    b.append(String.format(Locale.ROOT, "target%s %-50s wanted %-14s measured %-14s %s%n",
                            current ? " (issue 49)" : "", t.what, t.wanted, t.measured, t.met ? "MET" : "MISSED"));
                }
            }
        }
        return b.toString();
    }

    String markdown(String command) {
        StringBuilder b = new StringBuilder();
        b.append("# Benchmarks\n\n");
        b.append("ssb-jca on PostgreSQL against WildFly's own messaging (ActiveMQ Artemis), measured side by side in"
                + " one WildFly, in one run, on the machine below. Written by the benchmark itself; run it again"
                + " with:\n\n");
        b.append("```\n").append(command).append("\n```\n\n");
        b.append("(It starts its own PostgreSQL and WildFly; the figures below are those of the last run. How it works"
                + " and what each figure means: [Method](#method).)\n\n");
        b.append("## The machine's speed in this run\n\n");
        b.append("Read this first: the database's own ceiling on this day, against the last published run ("
                + LastPublished.RUN + "). A slow day shows here; a regression of ssb-jca's shows in its ratios"
                + " to the ceiling and to the loop inside WildFly below, which the day moves far less.\n\n");
        if (speed.isEmpty()) {
            b.append("- not measured (the throughput phase did not run)\n");
        }
        speed.forEach(l -> b.append("- ").append(l).append('\n'));
        b.append("\n## Machine\n\n| | |\n|---|---|\n");
        machine.forEach((k, v) -> b.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        targets(b, "Targets (issue 49)", true);
        if (!headlines.isEmpty()) {
            b.append("\n## Headline ratios\n\n");
            b.append("Each from the same interleaved rounds: the median of the rounds' ratios, the smallest and largest"
                    + " round's in brackets; \"—\" where the phase has no such reference. The JDBC ceiling is the"
                    + " plain loop with as many threads, no container; the loop inside WildFly runs ssb-jca's own"
                    + " RECEIVE in WildFly's transactions, no adapter.\n\n");
            b.append("| | ssb-jca / Artemis | ssb-jca / the JDBC ceiling | ssb-jca / the loop inside WildFly"
                    + " | Artemis / the JDBC ceiling |\n|---|---:|---:|---:|---:|\n");
            for (Headline h : headlines) {
                b.append("| ").append(h.what()).append(" | ").append(String.join(" | ", cells(h))).append(" |\n");
            }
        }
        targets(b, "Earlier targets (issues 7, 15 and 16; where issue 49 sets its own, its row above decides)",
                false);
        String section = null;
        for (Row r : rows) {
            if (!r.section.equals(section)) {
                section = r.section;
                b.append("\n## ").append(Character.toUpperCase(section.charAt(0))).append(section.substring(1))
                        .append("\n\n| | figure | note |\n|---|---:|---|\n");
            }
            b.append("| ").append(r.what).append(" | ").append(r.value).append(" | ").append(r.note).append(" |\n");
        }
        statementProfile(b, "ssb-jca throughput run, 4 readers", profile);
        statementProfile(b, "ssb-jca outbound run, 4 callers", outboundProfile);
        statementProfile(b, "ssb-jca reply run, 4 readers", replyProfile);
        statementProfile(b, "ssb-jca latency run, 4 readers", latencyProfile);
        statementProfile(b, "ssb-jca scaling run, 8 readers, the first round", scalingProfile);
        if (!perfProfile.isEmpty()) {
            b.append("\n## PostgreSQL's CPU by phase of its work (perf, µs per message or call)\n\n");
            b.append("The throughput drain of ssb-jca and the JDBC loop's, and the sending side's calls of each, run"
                    + " again after the other phases while perf sampled the machine (999 Hz, call stacks): perf slows"
                    + " them all. See [Method](#method).\n\n");
            b.append("| | ssb-jca, 4 readers | JDBC loop, 4 threads | ssb-jca, beginDialogAndSend, 4 callers"
                    + " | the outbound JDBC loop, 4 threads |\n|---|---:|---:|---:|---:|\n");
            perfProfile.forEach(p -> b.append(p).append('\n'));
        }
        if (!jfrProfile.isEmpty()) {
            b.append("\n## WildFly's readers by component and by step (JFR, drains of their own)\n\n");
            b.append("The readers' Java execution samples per 1,000 messages, their share in brackets (JFR, a sample"
                    + " every millisecond), beside those of the loop inside WildFly running ssb-jca's RECEIVE with as"
                    + " many threads: what the adapter adds beyond that loop. Sampling that often costs WildFly CPU of"
                    + " its own, so compare these drains with each other, not with the others. See"
                    + " [Method](#method).\n\n");
            b.append("| | ssb-jca, 8 readers | the loop inside WildFly, 8 threads |\n|---|---:|---:|\n");
            jfrProfile.forEach(p -> b.append(p).append('\n'));
        }
        if (!notes.isEmpty()) {
            b.append("\n## Notes of this run\n\n");
            notes.forEach(n -> b.append("- ").append(n).append('\n'));
        }
        return b.toString();
    }

    /** Appends the targets of issue 49 ({@code current}) or the earlier ones, when there are any. */
    private void targets(StringBuilder b, String title, boolean current) {
        List<Target> these = targets.stream().filter(t -> t.current() == current)
                .sorted(java.util.Comparator.comparingInt(Target::point)).toList();
        if (these.isEmpty()) {
            return;
        }
        b.append("\n## ").append(title).append("\n\n| target | wanted | measured | |\n|---|---|---|---|\n");
        for (Target t : these) {
            b.append("| ").append(t.what).append(" | ").append(t.wanted).append(" | ").append(t.measured)
                    .append(" | ").append(verdict(t)).append(" |\n");
        }
    }

    private static String verdict(Target t) {
        if (t.met) {
            return "met";
        }
        return t.reach == null ? "**missed**" : "**missed**; " + t.reach;
    }

    /** Appends a statement profile's section (pg_stat_statements over one run), when it has rows. */
    private static void statementProfile(StringBuilder b, String run, List<String> rows) {
        if (!rows.isEmpty()) {
            b.append("\n## Statement profile (pg_stat_statements, ").append(run).append(")\n\n");
            b.append(PROFILE_HEAD);
            rows.forEach(p -> b.append(p).append('\n'));
        }
    }
}
