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

    /** One target of issue 7. */
    record Target(String what, String wanted, String measured, boolean met) {
    }

    final List<Row> rows = new ArrayList<>();
    final List<Target> targets = new ArrayList<>();
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

    void target(String what, String wanted, String measured, boolean met) {
        targets.add(new Target(what, wanted, measured, met));
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
        b.append(String.format(Locale.ROOT, "%-12s | %-58s | %16s | %s%n", "section", "what", "figure", "note"));
        b.append("-".repeat(120)).append('\n');
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "%-12s | %-58s | %16s | %s%n", r.section, r.what, r.value, r.note));
        }
        b.append('\n');
        for (Target t : targets) {
            b.append(String.format(Locale.ROOT, "target %-50s wanted %-14s measured %-14s %s%n", t.what, t.wanted,
                    t.measured, t.met ? "MET" : "MISSED"));
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
        b.append("## Machine\n\n| | |\n|---|---|\n");
        machine.forEach((k, v) -> b.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        b.append("\n## Targets (issue 15; the batch row issue 7)\n\n| target | wanted | measured | |\n"
                + "|---|---|---|---|\n");
        for (Target t : targets) {
            b.append("| ").append(t.what).append(" | ").append(t.wanted).append(" | ").append(t.measured)
                    .append(" | ").append(t.met ? "met" : "**missed**").append(" |\n");
        }
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
            b.append("\n## WildFly's readers by component and by step (JFR, a drain of their own)\n\n");
            b.append("Shares of the readers' Java execution samples (JFR, a sample every millisecond). Sampling that"
                    + " often costs WildFly CPU of its own, so compare the shares, not the CPU per message of this"
                    + " drain with the others. See [Method](#method).\n\n");
            b.append("| | share |\n|---|---:|\n");
            jfrProfile.forEach(p -> b.append(p).append('\n'));
        }
        if (!notes.isEmpty()) {
            b.append("\n## Notes of this run\n\n");
            notes.forEach(n -> b.append("- ").append(n).append('\n'));
        }
        return b.toString();
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
