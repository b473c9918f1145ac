package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.backend.portable.ReaderReceive;
import org.ssbjca.bench.server.BenchControlMXBean;
import org.ssbjca.bench.server.Payments;
import org.ssbjca.bench.server.TraceCounts;

/**
 * The benchmark of issue 7, in one run: ssb-jca on PostgreSQL (fsync and synchronous_commit on) against Artemis
 * (persistent queue) in the same WildFly; throughput, the JDBC ceiling, the batch listener, latency at a steady rate,
 * scaling with readers and with queue depth. Prints a table and writes docs/benchmarks.md. Run by
 * {@code mvn -B -Pbenchmark verify} only; no figure is asserted (a target missed is reported, not failed).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class BenchmarkIT {

    static final String COMMAND = "mvn -B -Pbenchmark verify";
    private static final int BODY = 256;
    private static final int CONVERSATIONS = 200;
    private static final boolean QUICK = Boolean.getBoolean("ssb.bench.quick");
    private static final int THROUGHPUT = QUICK ? 2_000 : 20_000;
    private static final int SCALING = QUICK ? 2_000 : 10_000;
    private static final int LATENCY = QUICK ? 300 : 3_000;
    private static final int LATENCY_RATE = 100;
    /** Scheduled sends of the delayed phase, their rate and delay. */
    private static final int DELAYED = QUICK ? 100 : 1_000;
    private static final int DELAYED_RATE = 50;
    private static final long DELAYED_MILLIS = 2_000;
    /** The rate of the unmeasured runs: five times the measured one, so that the JIT sees as many calls sooner. */
    private static final int LATENCY_SETTLE_RATE = 5 * LATENCY_RATE;
    /** Unmeasured runs of each system before the latency phase's rounds, at most. */
    private static final int LATENCY_SETTLE_RUNS = QUICK ? 1 : 8;
    /** An unmeasured run in which WildFly's JIT compiler used less CPU than this share of its wall time ends them. */
    private static final double LATENCY_SETTLED_JIT = 0.05;
    private static final int DEPTH_MEASURED = QUICK ? 1_000 : 10_000;
    private static final int[] DEPTHS = QUICK ? new int[] {1_000, 10_000, 20_000}
            : new int[] {1_000, 100_000, 1_000_000};
    private static final long RUN_TIMEOUT = 15 * 60_000L;
    /** Open conversations with no message left, beside the busy ones, in the idle-groups phase. */
    private static final int IDLE_GROUPS = QUICK ? 1_000 : 10_000;
    /** The Artemis queue the reply phase's MDB answers to (declared in bench-jms.xml). */
    private static final String REPLY_QUEUE = "BenchReplyQueue";
    /** The statement profiles' orders: the most called first, or the most execution time first. */
    private static final Comparator<StatementCounts.Totals> MOST_CALLED =
            Comparator.comparingLong(StatementCounts.Totals::calls).reversed();
    private static final Comparator<StatementCounts.Totals> MOST_TIME =
            Comparator.comparingDouble(StatementCounts.Totals::execMillis).reversed();
    /** Idle conversations the next {@link #loadSsb} adds before the busy ones. */
    private int idleToLoad;

    private final Report report = new Report();
    private final LoadSampler load = new LoadSampler();
    private BenchPostgres pg;
    /** pg_stat_statements as {@link #markStatements} last read it. */
    private StatementCounts statementsBefore;
    private SsbLoader loader;
    private BenchServer server;
    private BenchControlMXBean control;
    private CpuMeter cpu;
    /** The machine's ticks when the run began ({@link CpuMeter#machine()}), for the speed section's cores line. */
    private long[] machineAtStart = {-1, -1, -1};
    /** CPU used by the last drain (null when not measured). */
    private CpuMeter.Reading lastCpuReading;
    /** Messages the last drain's CPU reading covers. */
    private long cpuMessages;
    /** {@link #maintenanceSince} of the last drain's timed window, or null. */
    private long[] lastMaintenance;
    /** CPU time of WildFly's JIT compiler threads in the last ssb-jca drain's CPU window. */
    private long lastCompilerNanos;
    /**
     * The last timed window, {@link System#nanoTime()} at its start and end: an ssb-jca drain's CPU window, the JDBC
     * loop's drain, a run of sending calls (ssb-jca's or the outbound loop's).
     */
    private long lastWindowFrom;
    private long lastWindowTo;
    /**
     * While set (the profile phase's JFR drains), a drain's CPU window also reads WildFly's threads whose names begin
     * with it ({@link TaskTimes}), from a tenth of the drain to nine tenths, into {@link #lastTaskTimes}.
     */
    private String taskPrefix;
    /** What the threads named {@link #taskPrefix} did in the last drain read with it ({@code NONE}: not read). */
    private TaskTimes.Span lastTaskTimes = TaskTimes.Span.NONE;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return BenchDeployments.rar(BenchPostgres.get());
    }

    @Deployment(name = "control", order = 2, testable = false)
    static JavaArchive control() {
        return BenchDeployments.control();
    }

    @Test
    void benchmark() throws Exception {
        pg = BenchPostgres.get();
        loader = new SsbLoader(pg);
        loader.declare(Path.of(System.getProperty("ssb.bench.sqlDir")));
        load.start();
        machineAtStart = CpuMeter.machine();
        try (BenchServer s = new BenchServer(Integer.getInteger("ssb.bench.managementPort", 9990))) {
            server = s;
            control = s.control();
            s.keepArtemisInMemory(ARTEMIS_MEMORY_BYTES);
            machine();
            cpu = CpuMeter.find(pg).orElse(null);
            Set<String> phases = phases();
            warmUp();
            loaderMatchesSend();
            if (phases.contains("throughput") || phases.contains("ceiling")) {
                throughput();
            }
            if (phases.contains("batch")) {
                batch();
            }
            if (phases.contains("latency")) {
                latency();
            }
            if (phases.contains("scaling")) {
                scaling();
            }
            if (phases.contains("depth")) {
                depth();
            }
            if (phases.contains("idle")) {
                idleGroups();
            }
            if (phases.contains("outbound")) {
                outbound();
            }
            if (phases.contains("reply")) {
                reply();
            }
            if (phases.contains("table")) {
                tableQueue();
            }
            if (phases.contains("onedb")) {
                oneDatabase();
            }
            if (phases.contains("delayed")) {
                delayed();
            }
            if (phases.contains("profile")) {
                profile();
            } else if (phases.contains("jfr")) {
                jfrProfile();
            }
            if (phases.contains("tracing")) {
                tracing(); // last: it reloads the server with the opentelemetry subsystem
            }
            report.notes.add(String.format(Locale.ROOT, "Every per-message run of ssb-jca and Artemis in this"
                    + " benchmark was checked to commit one message per transaction (the recorder counts"
                    + " transactions): %,d transactions, none with more than one message.", perMessageTransactions));
        } finally {
            load.stop();
        }
        finish();
    }

    private static Set<String> phases() {
        String p = System.getProperty("ssb.bench.phases", "all");
        if (p.isBlank() || "all".equals(p)) {
            return Set.of("throughput", "batch", "latency", "scaling", "depth", "idle", "outbound",
                    "reply", "table", "onedb", "delayed", "profile", "tracing");
        }
        return Set.of(p.split(","));
    }

    // ---- phases

    private void warmUp() throws Exception {
        int n = QUICK ? 1_000 : 20_000;
        drainSsb(BenchDeployments.ssbConsumer(4), n, n);
        drainArtemis(BenchDeployments.artemisConsumer(4), n);
        JdbcCeiling.drain(pg, SsbLoader.QUEUE, 4, loadSsb(n));
        // the sending paths the outbound phase measures, one call per transaction (the loader writes ssb-jca's queue
        // with SQL, and fills Artemis's 500 messages per transaction)
        for (String sending : List.of("ssb-one-call", "ssb", "artemis")) {
            assertEquals(0, control.outbound(sending, 4, n / 4, BODY)[1], "no send failed in the warm-up");
        }
        loader.clear();
        emptyArtemis(n / 4);
        log("warm-up done: %,d messages through each system and the JDBC loop; %,d sending calls of each way", n,
                n / 4);
    }

    /** The loader's rows are compared with those BEGIN DIALOG and SEND make, on one 3-message conversation. */
    private void loaderMatchesSend() throws Exception {
        loader.clear();
        control.sendSsb(1, 3, BODY);
        List<String> sent = loader.shapeOfConversations("TRUE");
        loader.clear();
        loader.load(1, 3, BODY);
        List<String> loaded = loader.shapeOfConversations("TRUE");
        loader.clear();
        assertEquals(sent, loaded, "the loader's rows must be those SEND makes");
        report.notes.add("The set-based loader's rows were compared with those of BEGIN DIALOG + 3 SENDs through the"
                + " connection factory in this run (endpoints: state, sequence, services, contract, group's queue;"
                + " messages: sequence, type, size, queue, group): identical (" + sent.size() + " endpoint rows).");
    }

    /**
     * ssb-jca (4 readers), Artemis (maxSession 4) and the plain JDBC loop (4 threads, the ceiling) drain the same
     * throughput phase's messages, in {@link Rounds}; the statement profiles come from the first round.
     */
    private void throughput() throws Exception {
        List<Drain> ssb = new ArrayList<>();
        List<Drain> artemis = new ArrayList<>();
        List<Drain> loop = new ArrayList<>();
        List<Drain> inWildFly = new ArrayList<>();
        List<Drain> loopReceive = new ArrayList<>();
        List<Drain> inWildFlyReceive = new ArrayList<>();
        String receive = ReaderReceive.perMessage();
        double[] toArtemis = new double[Rounds.COUNT];
        double[] toLoop = new double[Rounds.COUNT];
        double[] inWildFlyToLoop = new double[Rounds.COUNT];
        double[] toInWildFly = new double[Rounds.COUNT];
        double[] receiveToLoop = new double[Rounds.COUNT];
        double[] toInWildFlyReceive = new double[Rounds.COUNT];
        double[] artemisToLoop = new double[Rounds.COUNT];
        double[] statement = null;
        for (int round = 0; round < Rounds.COUNT; round++) {
            boolean first = round == 0;
            for (String system : Rounds.order(round, List.of("ssb", "artemis", "loop", "in-wildfly", "loop-receive",
                    "in-wildfly-receive"))) {
                if (first && ("ssb".equals(system) || "loop".equals(system))) {
                    markStatements();
                }
                switch (system) {
                    case "ssb" -> {
                        ssb.add(ssbDrain(BenchDeployments.ssbConsumer(4), THROUGHPUT));
                        if (first) {
                            profileStatements(THROUGHPUT);
                        }
                    }
                    case "artemis" -> artemis.add(artemisDrain(BenchDeployments.artemisConsumer(4), THROUGHPUT));
                    case "in-wildfly" -> inWildFly.add(containerDrain(4, THROUGHPUT));
                    case "loop-receive" -> loopReceive.add(loopDrain(receive, 4, THROUGHPUT));
                    case "in-wildfly-receive" -> inWildFlyReceive.add(containerDrain(receive, 4, THROUGHPUT));
                    default -> {
                        loop.add(loopDrain(4, THROUGHPUT));
                        if (first) {
                            statement = topStatement();
                        }
                    }
                }
            }
            toArtemis[round] = ssb.get(round).rate() / artemis.get(round).rate();
            toLoop[round] = ssb.get(round).rate() / loop.get(round).rate();
            inWildFlyToLoop[round] = inWildFly.get(round).rate() / loop.get(round).rate();
            toInWildFly[round] = ssb.get(round).rate() / inWildFly.get(round).rate();
            receiveToLoop[round] = loopReceive.get(round).rate() / loop.get(round).rate();
            toInWildFlyReceive[round] = ssb.get(round).rate() / inWildFlyReceive.get(round).rate();
            artemisToLoop[round] = artemis.get(round).rate() / loop.get(round).rate();
        }
        report.speed("the JDBC ceiling (the plain loop of the throughput phase, 4 threads, XA one-phase, no container):"
                + " " + machineSpeed(loop).text());
        report.headline(new Report.Headline("throughput, 4 readers", Spread.of(toArtemis), Spread.of(toLoop),
                Spread.of(toInWildFlyReceive), Spread.of(artemisToLoop)));
        String journal = BenchServer.journal();
        report.row("throughput", "ssb-jca, PostgreSQL, transacted MDB, 4 readers", Report.rate(median(ssb)),
                String.format(Locale.ROOT, "%,d messages over %d conversations, %d-byte bodies%s; %s", THROUGHPUT,
                        CONVERSATIONS, BODY, roundsNote(ssb), cpuOf(ssb, false)));
        report.row("throughput", "Artemis, persistent queue, transacted MDB, maxSession 4",
                Report.rate(median(artemis)), journal + " journal" + roundsNote(artemis) + "; "
                        + cpuOf(artemis, false));
        double ratio = Rounds.median(toArtemis);
        report.row("throughput", "ssb-jca / Artemis", Spread.of(toArtemis).text(), eachRound(toArtemis));
        report.target("throughput phase ≥ 1.2× Artemis (" + journal + ") at 4 readers", "≥ 1.20×",
                Spread.of(toArtemis).text(), ratio >= 1.2);
        report.row("ceiling", "plain JDBC loop, XA one-phase, 4 threads, no container", Report.rate(median(loop)),
                String.format(Locale.ROOT, "one statement (%.3f executions per message, mean %.3f ms in PostgreSQL;"
                        + " planned %.3f times per execution, mean %.3f ms; the first round) + commit per message%s;"
                        + " %s", statement[0] / THROUGHPUT, statement[1], statement[2] / statement[0], statement[3],
                        roundsNote(loop), cpuOf(loop, true)));
        double ceiling = Rounds.median(toLoop);
        report.row("ceiling", "ssb-jca (4 readers) / JDBC ceiling", Spread.of(toLoop).text(), eachRound(toLoop));
        report.row("ceiling", "Artemis (maxSession 4) / JDBC ceiling", Spread.of(artemisToLoop).text(),
                "how fast the database's ceiling was against Artemis on this day; " + eachRound(artemisToLoop));
        report.target("throughput ≥ 0.9× the JDBC XA ceiling (4 readers)", "≥ 0.90×", Spread.of(toLoop).text(),
                ceiling >= 0.9);
        report.row("ceiling", "the same loop inside WildFly: its transaction manager (begin, enlist, one-phase commit)"
                + " and one EJB call per message, no ssb-jca, 4 threads", Report.rate(median(inWildFly)),
                "the container's steps of an MDB's delivery around the ceiling's statement" + roundsNote(inWildFly)
                        + "; " + cpuOf(inWildFly, false));
        report.row("ceiling", "the loop inside WildFly / the plain JDBC loop", Spread.of(inWildFlyToLoop).text(),
                "what WildFly's container-managed transaction and EJB call leave of the ceiling"
                        + " to any consumer; " + eachRound(inWildFlyToLoop));
        report.row("ceiling", "ssb-jca (4 readers) / the loop inside WildFly", Spread.of(toInWildFly).text(),
                "what ssb-jca itself costs: its RECEIVE, bookkeeping, the MessageEndpoint; "
                        + eachRound(toInWildFly));
        report.row("ceiling", "the plain JDBC loop running the readers' own RECEIVE (ssb-jca's text: its planner"
                + " setting, the RECEIVE, the setting restored; no adapter), 4 threads",
                Report.rate(median(loopReceive)), "the ceiling's loop with ssb-jca's statements instead of the"
                        + " ceiling's" + roundsNote(loopReceive) + "; "
                        + cpuOf(loopReceive, true));
        report.row("ceiling", "the loop with the readers' RECEIVE / the plain JDBC loop",
                Spread.of(receiveToLoop).text(), "what ssb-jca's statement costs against the ceiling's (parking a"
                        + " drained group, the disabled queue, the race marker, whether it took the last messages); "
                        + eachRound(receiveToLoop));
        report.row("ceiling", "the loop inside WildFly running the readers' RECEIVE statement, 4 threads",
                Report.rate(median(inWildFlyReceive)), "the container's steps around ssb-jca's statement, no adapter"
                        + roundsNote(inWildFlyReceive) + "; " + cpuOf(inWildFlyReceive, false));
        report.row("ceiling", "ssb-jca (4 readers) / the loop inside WildFly running its RECEIVE",
                Spread.of(toInWildFlyReceive).text(), "what the adapter's Java costs around its statement:"
                        + " the reader, its bookkeeping, the MessageEndpoint, reading every column; "
                        + eachRound(toInWildFlyReceive));
    }

    /**
     * The profile phase, after every other phase (perf and JFR slow what they record): PostgreSQL's CPU by phase of
     * its work ({@link #perfProfile}), then WildFly's readers by component and step ({@link #jfrProfile}).
     */
    private void profile() throws Exception {
        Path data = Path.of(System.getProperty("ssb.bench.baseDir")).resolveSibling("bench-perf.data");
        java.util.Optional<PerfProfile> started = cpu == null ? java.util.Optional.empty() : PerfProfile.start(data);
        if (started.isEmpty()) {
            report.notes.add("The profile phase did not run: perf could not record, or the CPU could not be read"
                    + " (see the log).");
            return;
        }
        try (PerfProfile perf = started.get()) {
            if (!perfProfile(perf)) {
                return;
            }
        }
        jfrProfile();
    }

    /**
     * The throughput drain of ssb-jca (4 readers) and the JDBC loop's (4 threads), then the sending side's calls of
     * each (ssb-jca's {@code beginDialogAndSend}, 4 callers, and the outbound ceiling's statement, 4 threads), again,
     * under perf ({@link PerfProfile}): PostgreSQL's CPU per message by phase of its work, beside what /proc gives.
     *
     * @return false when the drain ended before its CPU window began (nothing recorded)
     */
    private boolean perfProfile(PerfProfile perf) throws Exception {
        double ssb = drainSsb(BenchDeployments.ssbConsumer(4), THROUGHPUT, THROUGHPUT);
        PerfWindow ssbDrain = new PerfWindow(lastWindowFrom, lastWindowTo, cpuMessages, lastCpuReading);
        if (lastCpuReading == null) {
            report.notes.add("The profile phase's ssb-jca drain ended before its CPU window began.");
            return false;
        }
        Drain loop = loopDrain(4, THROUGHPUT);
        PerfWindow loopDrain = lastWindow(loop);
        // the sending side: the queue empty, nothing consuming, as in the outbound phase
        loader.clear();
        int calls = SCALING;
        Drain ssbCalls = ssbOutbound("ssb-one-call", calls, false);
        PerfWindow ssbSend = lastWindow(ssbCalls);
        Drain loopCalls = loopOutbound(calls);
        PerfWindow loopSend = lastWindow(loopCalls);
        perf.stop();
        List<PerfWindow> windows = List.of(ssbDrain, loopDrain, ssbSend, loopSend);
        List<Map<String, Double>> phases = new ArrayList<>();
        for (PerfWindow w : windows) {
            phases.add(perf.postgresMicros(w.from(), w.to()));
        }
        report.perfProfile.add(String.format(Locale.ROOT, "| under perf: a drain of %,d messages by 4 readers or"
                + " threads; %,d calls by 4 callers or threads | %s | %s | %s | %s |", THROUGHPUT, calls,
                Report.rate(ssb), Report.rate(loop.rate()), Report.rate(ssbCalls.rate()),
                Report.rate(loopCalls.rate())));
        double[] sums = new double[windows.size()];
        for (String phase : phases.get(0).keySet()) {
            StringBuilder row = new StringBuilder("| ").append(phase).append(" |");
            for (int i = 0; i < windows.size(); i++) {
                double micros = phases.get(i).get(phase) / windows.get(i).messages();
                sums[i] += micros;
                row.append(String.format(Locale.ROOT, " %.0f |", micros));
            }
            report.perfProfile.add(row.toString());
        }
        StringBuilder all = new StringBuilder("| **all of PostgreSQL's samples** |");
        StringBuilder proc = new StringBuilder("| PostgreSQL's CPU from /proc, the same windows |");
        for (int i = 0; i < windows.size(); i++) {
            all.append(String.format(Locale.ROOT, " **%.0f** |", sums[i]));
            proc.append(String.format(Locale.ROOT, " %.0f |", windows.get(i).cpu().postgresNanos() / 1e3
                    / windows.get(i).messages()));
        }
        report.perfProfile.add(all.toString());
        report.perfProfile.add(proc.toString());
        log("profile: %s", report.perfProfile);
        return true;
    }

    /** A run under perf: its window (System.nanoTime), the messages or calls in it, its CPU from /proc. */
    private record PerfWindow(long from, long to, long messages, CpuMeter.Reading cpu) {
    }

    /** @return the window of the run that returned {@code d} (its timed window's ends, its CPU reading) */
    private PerfWindow lastWindow(Drain d) {
        return new PerfWindow(lastWindowFrom, lastWindowTo, d.cpuMessages(), d.cpu());
    }

    /** Readers (or the loop's threads) of the profile phase's JFR drains: issue 49's case, where scaling falls off. */
    private static final int JFR_THREADS = 8;

    /**
     * WildFly's side on drains of their own ({@link JfrProfile}): JFR's millisecond sampling slows WildFly, which would
     * change what PostgreSQL does per message (longer transactions, more contention) in the drain perf records.
     * ssb-jca with {@value #JFR_THREADS} readers, then the loop inside WildFly running ssb-jca's RECEIVE with as many
     * threads, each under a recording of its own started before its drain is loaded (a recording's start costs WildFly
     * a burst of CPU): their samples per message side by side are what the adapter adds beyond that loop. The
     * recordings stay beside WildFly's base directory, for reading with the JDK's {@code jfr}.
     */
    private void jfrProfile() throws Exception {
        Path file = Path.of(System.getProperty("ssb.bench.baseDir")).resolveSibling("bench-profile.jfr");
        // both drains also read each delivery thread's CPU time and allocations at each delivery (ThreadCosts); a
        // drain that fails ends the benchmark, so nothing after them would measure
        control.measureThreads(true);
        lastTaskTimes = TaskTimes.Span.NONE;
        taskPrefix = JfrProfile.READER_THREADS;
        List<Map<String, Long>> ssb = jfrDrain(file, JfrProfile.READER_THREADS,
                () -> drainSsb(BenchDeployments.ssbConsumer(JFR_THREADS), THROUGHPUT, THROUGHPUT));
        long[] ssbThreads = control.threadCosts();
        TaskTimes.Span ssbTasks = lastTaskTimes;
        CpuMeter.Reading ssbCpu = lastCpuReading;
        long ssbMessages = cpuMessages;
        lastTaskTimes = TaskTimes.Span.NONE;
        taskPrefix = JfrProfile.LOOP_THREADS;
        List<Map<String, Long>> loop = jfrDrain(file.resolveSibling("bench-profile-loop.jfr"),
                JfrProfile.LOOP_THREADS, () -> containerDrain(ReaderReceive.perMessage(), JFR_THREADS, THROUGHPUT));
        long[] loopThreads = control.threadCosts();
        TaskTimes.Span loopTasks = lastTaskTimes;
        CpuMeter.Reading loopCpu = lastCpuReading;
        long loopMessages = cpuMessages;
        taskPrefix = null;
        control.measureThreads(false);
        if (ssb == null || loop == null || ssbCpu == null || loopCpu == null) {
            report.notes.add("The profile phase's JFR drains did not record (see the log).");
            return;
        }
        report.jfrProfile.add(String.format(Locale.ROOT, "| the threads' Java samples per 1,000 messages | %.1f |"
                + " %.1f |", all(ssb) * 1000.0 / THROUGHPUT, all(loop) * 1000.0 / THROUGHPUT));
        report.jfrProfile.add(String.format(Locale.ROOT, "| WildFly's CPU per message (/proc) in this drain, JFR's"
                + " own sampling included | %.0f µs | %.0f µs |", ssbCpu.wildflyNanos() / 1e3 / ssbMessages,
                loopCpu.wildflyNanos() / 1e3 / loopMessages));
        report.jfrProfile.add(String.format(Locale.ROOT, "| of which the delivery threads' own CPU per message"
                + " (ThreadMXBean on each thread, from its first delivery to its latest; %d and %d threads) | %s |"
                + " %s |", ssbThreads[3], loopThreads[3], perCycle(ssbThreads, 0, 1e3, "µs"),
                perCycle(loopThreads, 0, 1e3, "µs")));
        report.jfrProfile.add(String.format(Locale.ROOT, "| the delivery threads' allocations per message (the same"
                + " readings) | %s | %s |", perCycle(ssbThreads, 1, 1, "bytes"), perCycle(loopThreads, 1, 1, "bytes")));
        report.jfrProfile.add(String.format(Locale.ROOT, "| CPU per message of the threads of that name in user mode,"
                + " then in the kernel (/proc/PID/task, from a tenth of the drain to nine tenths; %s and %s threads"
                + " ran) | %s | %s |",
                ssbTasks.threads(), loopTasks.threads(), ssbTasks.cpuPerMessage(), loopTasks.cpuPerMessage()));
        report.jfrProfile.add(String.format(Locale.ROOT, "| their context switches per message: voluntary (waiting for"
                + " a reply, a lock, a signal), then involuntary (preempted) | %s | %s |",
                ssbTasks.switchesPerMessage(), loopTasks.switchesPerMessage()));
        for (int i = 0; i < 2; i++) {
            report.jfrProfile.add(i == 0 ? "| **by component** (the innermost frame not the JDK's; the loop's own"
                    + " code counts as the MDB's) | | |" : "| **by step of the delivery** (the loop has none of the"
                    + " container's steps) | | |");
            for (String k : ssb.get(i).keySet()) {
                report.jfrProfile.add(String.format(Locale.ROOT, "| %s | %s | %s |", k,
                        perThousand(ssb.get(i).get(k), all(ssb)), perThousand(loop.get(i).getOrDefault(k, 0L),
                                all(loop))));
            }
        }
        report.jfrProfile.add("| **the adapter's samples by its innermost frame** (ssb-jca only; the ten most) | | |");
        ssb.get(2).entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(10)
                .forEach(e -> report.jfrProfile.add(String.format(Locale.ROOT, "| `%s` | %s | |", e.getKey(),
                        perThousand(e.getValue(), all(ssb)))));
        log("profile: %s", report.jfrProfile);
    }

    /**
     * @param costs {@code control.threadCosts()}: {CPU ns, bytes, cycles, threads}
     * @param k which figure
     * @param unit its divisor for {@code unitName}
     * @return the figure per cycle, or "not measured"
     */
    private static String perCycle(long[] costs, int k, double unit, String unitName) {
        return costs[2] == 0 ? "not measured" : String.format(Locale.ROOT, "%,.0f %s", costs[k] / unit / costs[2],
                unitName);
    }

    /** A drain run under a JFR recording. */
    @FunctionalInterface
    private interface Recorded {
        void run() throws Exception;
    }

    /** @return the samples of {@code threads} over {@code drain}, or null when the recording did not start */
    private List<Map<String, Long>> jfrDrain(Path file, String threads, Recorded drain) throws Exception {
        java.util.Optional<JfrProfile> recording = JfrProfile.start(cpu.wildfly(), file);
        if (recording.isEmpty()) {
            return null;
        }
        drain.run();
        recording.get().stop();
        return recording.get().samples(threads);
    }

    private static long all(List<Map<String, Long>> samples) {
        return samples.get(0).values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return samples per 1,000 of the drain's messages, and their share of {@code all} in brackets */
    private static String perThousand(long samples, long all) {
        return String.format(Locale.ROOT, "%.1f (%.0f%%)", samples * 1000.0 / THROUGHPUT, 100.0 * samples
                / Math.max(1, all));
    }

    /**
     * The batch listener's drain and the per-message listener's (4 readers each) in {@link Rounds}: the target on the
     * median of the rounds' ratios.
     */
    private void batch() throws Exception {
        List<Drain> batch = new ArrayList<>();
        List<Drain> perMessage = new ArrayList<>();
        double[] toPerMessage = new double[Rounds.COUNT];
        for (int round = 0; round < Rounds.COUNT; round++) {
            for (String system : Rounds.order(round, List.of("batch", "ssb"))) {
                if ("batch".equals(system)) {
                    batch.add(new Drain(drainSsb(BenchDeployments.ssbBatchConsumer(), THROUGHPUT, THROUGHPUT), null,
                            0));
                } else {
                    perMessage.add(ssbDrain(BenchDeployments.ssbConsumer(4), THROUGHPUT));
                }
            }
            toPerMessage[round] = batch.get(round).rate() / perMessage.get(round).rate();
        }
        report.row("batch", "ssb-jca, ConversationGroupListener, 4 readers, receiveBatchSize 10000",
                Report.rate(median(batch)), String.format(Locale.ROOT, "%d messages per transaction%s",
                        THROUGHPUT / CONVERSATIONS, roundsNote(batch)));
        report.row("batch", "ssb-jca, per-message MDB, 4 readers, in the same rounds", Report.rate(median(perMessage)),
                "one message per transaction" + roundsNote(perMessage));
        Spread ratio = Spread.of(toPerMessage);
        report.row("batch", "batch / per-message (4 readers)", ratio.text(), eachRound(toPerMessage));
        report.target("batch listener ≥ 20× per-message", "≥ 20×", ratio.text(), ratio.median() >= 20);
    }

    /**
     * The latency run's messages at a steady rate to each system, in {@link Rounds}; the percentiles
     * are over every round's messages of a system, each round's own beside them.
     */
    private void latency() throws Exception {
        loader.clear();
        List<long[]> ssb = new ArrayList<>();
        List<long[]> artemis = new ArrayList<>();
        List<Drain> ssbCpu = new ArrayList<>();
        List<Drain> artemisCpu = new ArrayList<>();
        List<boolean[]> ssbGc = new ArrayList<>();
        List<boolean[]> artemisGc = new ArrayList<>();
        // WildFly's JIT compiler threads' CPU in each round's window (null when not read)
        List<Long> ssbJit = new ArrayList<>();
        List<Long> artemisJit = new ArrayList<>();
        Map<String, String> settled = new HashMap<>();
        long[][] gcs = new long[2][2];
        long[] maintenance = new long[3];
        boolean maintenanceRead = cpu != null;
        java.util.Optional<LatencyStages> stages = cpu == null ? java.util.Optional.empty()
                : LatencyStages.start(cpu.wildfly(), Files.createTempFile("ssb-bench-latency", ".jfr"));
        try {
            // each system unmeasured, under the recording, until WildFly's JIT compiler is nearly idle through one of
            // its runs: neither's first measured round bears the recording's start, the first deliveries of the phase
            // or the compilation of their paths (with one run of 500 messages at the measured rate, the first round's
            // window held 25 s of compiler CPU against 1.5 s and 0.9 s in the later ones)
            for (String system : Rounds.order(0, List.of("ssb", "artemis"))) {
                JavaArchive consumer = "ssb".equals(system) ? BenchDeployments.ssbConsumer(4)
                        : BenchDeployments.artemisConsumer(4);
                server.deploy(consumer);
                List<String> jit = new ArrayList<>();
                try {
                    for (int run = 0; run < LATENCY_SETTLE_RUNS; run++) {
                        Map<Long, Long> compilers = cpu == null ? Map.of() : cpu.compilerTicks();
                        long from = System.nanoTime();
                        control.settle(system, LATENCY, LATENCY_SETTLE_RATE, BODY);
                        long compiled = cpu == null ? 0 : cpu.compilerNanosSince(compilers);
                        jit.add(String.format(Locale.ROOT, "%.0f", compiled / 1e6));
                        if (cpu == null || compiled < LATENCY_SETTLED_JIT * (System.nanoTime() - from)) {
                            break;
                        }
                    }
                } finally {
                    server.undeploy(consumer);
                }
                settled.put(system, String.format(Locale.ROOT, "; before the rounds %d unmeasured run(s) of %,d"
                        + " messages at %d msg/s, WildFly's JIT compilation in each: %s ms", jit.size(), LATENCY,
                        LATENCY_SETTLE_RATE, String.join(" / ", jit)));
                loader.clear();
            }
            for (int round = 0; round < Rounds.COUNT; round++) {
                for (String system : Rounds.order(round, List.of("ssb", "artemis"))) {
                    boolean toSsb = "ssb".equals(system);
                    boolean profile = toSsb && round == 0;
                    JavaArchive consumer = toSsb ? BenchDeployments.ssbConsumer(4)
                            : BenchDeployments.artemisConsumer(4);
                    server.deploy(consumer);
                    try {
                        // as before a drain: what the deployment left running (the readers' or sessions' start, a
                        // compilation) does not fall on the round's first messages
                        settleBeforeDrain("latency round " + (round + 1) + ", " + system);
                        if (profile) {
                            markStatements();
                        }
                        CpuMeter.Reading before = cpuNow();
                        long[] maintained = toSsb && cpu != null ? cpu.maintenance() : null;
                        Map<Long, Long> compilers = cpu == null ? Map.of() : cpu.compilerTicks();
                        long[] nanos = control.latency(system, LATENCY, LATENCY_RATE, BODY);
                        (toSsb ? ssbJit : artemisJit).add(cpu == null ? null : cpu.compilerNanosSince(compilers));
                        if (toSsb) {
                            long[] since = maintenanceSince(maintained);
                            maintenanceRead &= since != null;
                            for (int k = 0; k < 3 && since != null; k++) {
                                maintenance[k] += since[k];
                            }
                        }
                        (toSsb ? ssbCpu : artemisCpu).add(new Drain(0, since(before), LATENCY));
                        (toSsb ? ssb : artemis).add(nanos);
                        (toSsb ? ssbGc : artemisGc).add(control.latencyGcOverlaps());
                        long[] pauses = control.latencyGcPauses();
                        long[] sum = gcs[toSsb ? 0 : 1];
                        sum[0] += pauses[0];
                        sum[1] = Math.max(sum[1], pauses[1]);
                        if (profile) {
                            profileStatements(LATENCY, report.latencyProfile, false, MOST_CALLED, 10);
                        }
                    } finally {
                        server.undeploy(consumer);
                    }
                    loader.clear(); // the run's dialogs, so that each round starts alike
                }
            }
        } catch (Exception | Error e) {
            if (stages.isPresent()) { // not left recording in WildFly for the phases after this one
                try (LatencyStages recorded = stages.get()) {
                    recorded.stop();
                } catch (java.io.IOException stopFailed) {
                    e.addSuppressed(stopFailed);
                }
            }
            throw e;
        }
        if (stages.isPresent()) {
            try (LatencyStages recorded = stages.get()) {
                recorded.stop();
                stagesRows(recorded.read());
            }
        }
        double[] s = percentiles("ssb-jca", ssb);
        double[] a = percentiles("Artemis", artemis);
        String how = String.format(Locale.ROOT, "%,d messages at %d msg/s%s, each sent in its own transaction",
                LATENCY * Rounds.COUNT, LATENCY_RATE, Rounds.COUNT == 1 ? "" : String.format(Locale.ROOT,
                        " (%d rounds of %,d)", Rounds.COUNT, LATENCY));
        report.row("latency", "ssb-jca, 4 readers: p50 / p99 / max", triple(s), how + roundTriples(ssb)
                + settled.getOrDefault("ssb", "") + jitNote(ssbJit) + outlierNote(ssb, ssbGc, s[1], gcs[0])
                + maintenanceNote(maintenanceRead ? maintenance : null) + cpuNote(ssbCpu));
        report.row("latency", "Artemis, maxSession 4: p50 / p99 / max", triple(a), how + roundTriples(artemis)
                + settled.getOrDefault("artemis", "") + jitNote(artemisJit)
                + outlierNote(artemis, artemisGc, a[1], gcs[1]) + cpuNote(artemisCpu));
        double[] idle = idleRoundTrips();
        report.row("latency", "a round trip to PostgreSQL (`SELECT 1`, from the benchmark's JVM): p50 / p99 back to"
                + " back; after 10 ms idle, p50 / p99 / max", String.format(Locale.ROOT, "%.3f / %.3f; %.3f / %.3f /"
                        + " %.3f ms", idle[0], idle[1], idle[2], idle[3], idle[4]),
                String.format(Locale.ROOT, "%,d each; the gap between messages at %d msg/s is 10 ms: a delivery's"
                        + " RECEIVE is such a round trip after an idle wait", ROUND_TRIPS, LATENCY_RATE));
        loadSsb(2 * (LATENCY + TAKES_WARM_UP) + CONVERSATIONS); // whole conversations: at least as many
        long[][] takes = JdbcCeiling.afterIdle(pg, ReaderReceive.perMessage(), SsbLoader.QUEUE, LATENCY,
                TAKES_WARM_UP, 1_000_000_000L / LATENCY_RATE);
        loader.clear();
        double[] ceilingTake = percentilesOf(takes[0]);
        double[] readersTake = percentilesOf(takes[1]);
        report.row("latency", "taking a message from PostgreSQL after 10 ms idle (from the benchmark's JVM, the first"
                + " statement of an XA transaction): the ceiling's statement; the readers' RECEIVE, p50 / p99 / max",
                String.format(Locale.ROOT, "%.3f / %.3f / %.3f; %.3f / %.3f / %.3f ms", ceilingTake[0],
                        ceilingTake[1], ceilingTake[2], readersTake[0], readersTake[1], readersTake[2]),
                String.format(Locale.ROOT, "%,d each, alternately, one message each, its commit not counted: what"
                        + " any consumer woken by a message's arrival pays to take it from the database before its"
                        + " bean runs; as many as one round's messages, each of which holds such a take", LATENCY));
        Spread[] perRound = latencyRatios(ssb, artemis);
        report.row("latency", "ssb-jca / Artemis, round by round: p50; p99; max", perRound[0].text() + "; "
                + perRound[1].text() + "; " + perRound[2].text(), "each round's percentiles against the same round's"
                        + " of Artemis");
        report.headline(new Report.Headline("latency at 100 msg/s, p50", perRound[0], null, null, null));
        report.headline(new Report.Headline("latency at 100 msg/s, p99", perRound[1], null, null, null));
        report.speed(String.format(Locale.ROOT, "a round trip to PostgreSQL after 10 ms idle (`SELECT 1`, from the"
                + " benchmark's JVM, the latency phase): p50 %.3f ms, p99 %.3f ms", idle[2], idle[3]));
        report.target49(3, "latency p50 at 100 msg/s within one idle round trip to the database of Artemis's p50",
                "≤ Artemis's p50 + one round trip", String.format(Locale.ROOT, "%.2f ms against %.2f + %.3f = %.2f"
                        + " ms", s[0], a[0], idle[2], a[0] + idle[2]), Issue49.withinRoundTrip(s[0], a[0], idle[2]),
                Issue49.p50OutOfReach(a[0] + idle[2], ceilingTake[0], readersTake[0]));
        report.target49(3, "latency p99 and max no worse than the last published run's (" + LastPublished.RUN + ")",
                String.format(Locale.ROOT, "≤ %.2f ms, ≤ %.2f ms", LastPublished.LATENCY_P99_MS,
                        LastPublished.LATENCY_MAX_MS), String.format(Locale.ROOT, "%.2f ms, %.2f ms", s[1], s[2]),
                Issue49.tailNoWorse(s[1], s[2]), Issue49.maxOutOfReach(s[1], s[2], ceilingTake[2], readersTake[2]));
        report.target("latency at 100 msg/s: p50 and p99 ≤ Artemis's, max ≤ 2× Artemis's", "≤ 1×, ≤ 1×, ≤ 2×",
                String.format(Locale.ROOT, "%.2f×, %.2f×, %.2f×", s[0] / a[0], s[1] / a[1], s[2] / a[2]),
                s[0] <= a[0] && s[1] <= a[1] && s[2] <= 2 * a[2]);
    }

    /** @return ssb-jca's p50, p99 and max against Artemis's, each round against the same round */
    private static Spread[] latencyRatios(List<long[]> ssb, List<long[]> artemis) {
        Spread[] spreads = new Spread[3];
        for (int k = 0; k < 3; k++) {
            double[] ratios = new double[ssb.size()];
            for (int r = 0; r < ratios.length; r++) {
                ratios[r] = percentilesOf(ssb.get(r))[k] / percentilesOf(artemis.get(r))[k];
            }
            spreads[k] = Spread.of(ratios);
        }
        return spreads;
    }

    /** The latency phase's flight recording: ssb-jca's messages by stage, all of them and the slowest 1%. */
    private void stagesRows(LatencyStages.Result recorded) {
        String how = String.format(Locale.ROOT, "from a flight recording of WildFly over the phase (the adapter's"
                + " Wait and Receive events, the benchmark's own at each send's return and each bean call; %,d"
                + " messages placed, %d not); stages in ms, means, which add up to the latency", recorded.messages()
                .size(), recorded.unplaced());
        report.row("latency", "ssb-jca by stage: every message", recorded.describe(1.0), how);
        report.row("latency", "ssb-jca by stage: the slowest 1%", recorded.describe(0.01), how);
        report.row("latency", "ssb-jca by stage: the five slowest messages", recorded.describeSlowest(5),
                "each: its latency, then its stages in the order of the rows above, ms");
    }

    /** @return "; sending and receiving, CPU per message: ..." over the runs, or "" when not measured */
    private String cpuNote(List<Drain> runs) {
        String cpu = cpuOf(runs, false);
        return cpu.isEmpty() ? "" : "; sending and receiving, " + cpu;
    }

    /**
     * @return "; of the N messages slower than p99, ...": how many were among the first second's of a round (just
     *     after the consumer's deployment), WildFly's garbage collections during the runs (how many, the longest),
     *     and how many of those messages (and whether the slowest) waited across one
     */
    private static String outlierNote(List<long[]> rounds, List<boolean[]> overlaps, double p99Millis, long[] gcs) {
        int above = 0;
        int aboveFirst = 0;
        int aboveInGc = 0;
        long slowest = Long.MIN_VALUE;
        boolean slowestInGc = false;
        for (int r = 0; r < rounds.size(); r++) {
            long[] nanos = rounds.get(r);
            for (int i = 0; i < nanos.length; i++) {
                boolean inGc = i < overlaps.get(r).length && overlaps.get(r)[i];
                if (nanos[i] / 1e6 > p99Millis) {
                    above++;
                    aboveFirst += i < LATENCY_RATE ? 1 : 0;
                    aboveInGc += inGc ? 1 : 0;
                }
                if (nanos[i] > slowest) {
                    slowest = nanos[i];
                    slowestInGc = inGc;
                }
            }
        }
        return String.format(Locale.ROOT, "; of the %d messages slower than p99, %d in the first second of a round;"
                + " each round's slowest sent %s s into the round; WildFly's garbage collections during the runs: %d"
                + " (the longest %.0f ms), %d of those messages and %s slowest waited across one", above, aboveFirst,
                rounds.stream().map(r -> String.format(Locale.ROOT, "%.2f", slowestAt(r) / (double) LATENCY_RATE))
                        .collect(java.util.stream.Collectors.joining(" / ")), gcs[0], gcs[1] / 1e3, aboveInGc,
                slowestInGc ? "the" : "not the");
    }

    /** @return the index of the slowest message of a round (its send's due time over the rate: seconds in) */
    private static int slowestAt(long[] round) {
        int at = 0;
        for (int i = 1; i < round.length; i++) {
            at = round[i] > round[at] ? i : at;
        }
        return at;
    }

    /**
     * @param rounds WildFly's JIT compiler threads' CPU in each round's window, nanoseconds (null when not read)
     * @return "; WildFly's JIT compilation in each round's window: 120 / 8 / 5 ms" or "" when not read
     */
    private static String jitNote(List<Long> rounds) {
        return rounds.isEmpty() || rounds.contains(null) ? "" : "; WildFly's JIT compilation in each round's window: "
                + rounds.stream().map(n -> String.format(Locale.ROOT, "%.0f", n / 1e6))
                        .collect(java.util.stream.Collectors.joining(" / ")) + " ms";
    }

    /** @return "; each round: p50 / p99 / max, ..." or "" for one round */
    private static String roundTriples(List<long[]> rounds) {
        return rounds.size() < 2 ? "" : "; each round: " + rounds.stream().map(r -> triple(percentilesOf(r)))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static final int ROUND_TRIPS = 1_000;
    /** Takes after idle not kept, of each statement: the first executions plan and prepare it. */
    private static final int TAKES_WARM_UP = 20;

    /**
     * What one round trip to PostgreSQL costs on this machine, back to back and after the machine was idle for the
     * latency phase's gap between messages (an idle CPU takes time to wake up, and each of a round trip's hand-overs,
     * thread to server process and back, may meet one).
     *
     * @return in milliseconds: {p50 back to back, p99 back to back, p50 after 10 ms idle, p99 after 10 ms idle, max
     *     after 10 ms idle}
     */
    private double[] idleRoundTrips() throws Exception {
        double[] p = new double[5];
        try (java.sql.Connection c = pg.connect();
                java.sql.PreparedStatement ps = c.prepareStatement("SELECT 1")) {
            c.setAutoCommit(true);
            for (int idle = 0; idle < 2; idle++) {
                long[] nanos = new long[ROUND_TRIPS];
                for (int i = 0; i < nanos.length; i++) {
                    if (idle == 1) {
                        long until = System.nanoTime() + 1_000_000_000L / LATENCY_RATE;
                        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                            java.util.concurrent.locks.LockSupport.parkNanos(left);
                        }
                    }
                    long start = System.nanoTime();
                    try (java.sql.ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                    nanos[i] = System.nanoTime() - start;
                }
                double[] percentiles = percentilesOf(nanos);
                p[2 * idle] = percentiles[0];
                p[2 * idle + 1] = percentiles[1];
                p[4] = percentiles[2];
            }
        }
        return p;
    }

    /** At 1, 2, 4 and 8 readers: ssb-jca, Artemis and the plain JDBC loop drain the same queue, in {@link Rounds}. */
    private void scaling() throws Exception {
        StringBuilder ratios = new StringBuilder();
        boolean met = true;
        List<Spread> toOwnLoop = new ArrayList<>();
        // the same from a tenth of each drain to nine tenths: without the start of ssb-jca's freshly deployed bean
        List<Spread> toOwnLoopSteady = new ArrayList<>();
        // the first pair of each round alone, as runs up to AG took the ratio
        List<Spread> toOwnLoopFirst = new ArrayList<>();
        // the median rates of ssb-jca and of the loop inside WildFly running its RECEIVE, by reader count, over both
        // drains of each round
        Map<Integer, double[]> rates = new HashMap<>();
        for (int readers : new int[] {1, 2, 4, 8}) {
            List<Drain> ssb = new ArrayList<>();
            List<Drain> artemis = new ArrayList<>();
            List<Drain> loop = new ArrayList<>();
            List<Drain> inWildFly = new ArrayList<>();
            List<Drain> inWildFlyReceive = new ArrayList<>();
            // each round's second pair of ssb-jca and the loop running its RECEIVE, in the other order
            List<Drain> ssbAgain = new ArrayList<>();
            List<Drain> inWildFlyReceiveAgain = new ArrayList<>();
            String receive = ReaderReceive.perMessage();
            double[] toArtemis = new double[Rounds.SCALING];
            double[] loopToArtemis = new double[Rounds.SCALING];
            double[] inWildFlyToArtemis = new double[Rounds.SCALING];
            double[] inWildFlyReceiveToArtemis = new double[Rounds.SCALING];
            double[] toLoop = new double[Rounds.SCALING];
            double[] toInWildFlyReceive = new double[Rounds.SCALING];
            double[] toInWildFlyReceiveSteady = new double[Rounds.SCALING];
            double[] toInWildFlyReceiveFirst = new double[Rounds.SCALING];
            double[] artemisToLoop = new double[Rounds.SCALING];
            // the RECEIVE statement of each database consumer in the first round: executions, mean ms in PostgreSQL
            Map<String, double[]> receives = new HashMap<>();
            // Both beans of a count are deployed once, as the loops' code is; each drain starts and stops their
            // delivery (their endpoint's activation: the readers or sessions start, connect and stop per drain, as
            // the loops' threads connect per drain). One drain of each, not timed, before the rounds warms what the
            // drains of a count share (the adapter's or the Artemis RA's code at this count, the container's); the
            // rows give the JIT compilation that remains. method.md says since which run.
            JavaArchive ssbBean = BenchDeployments.ssbConsumer(readers);
            JavaArchive artemisBean = BenchDeployments.artemisConsumer(readers);
            deployOnce(ssbBean, BenchDeployments.SSB_BEAN);
            deployOnce(artemisBean, BenchDeployments.ARTEMIS_BEAN);
            try {
                ssbDrain(ssbBean, SCALING);
                artemisDrain(artemisBean, SCALING);
                log("%d reader(s): one drain of each bean done, not timed", readers);
                for (int round = 0; round < Rounds.SCALING; round++) {
                    // each pair a ratio is taken between runs back to back: Artemis and ssb-jca, ssb-jca and the loop
                    // inside WildFly running its RECEIVE (issue 49's target), that loop and the one running the
                    // ceiling's statement, that one and the plain loop; a drift of the machine within a round then
                    // falls between the drains of a pair as little as it can
                    // ssb-jca and that loop run twice a round, the second pair in the other order (ABBA): the drain of
                    // the loop that followed ssb-jca's ran faster than the one that followed another loop's (runs AE to
                    // AG), which the order alone would have put on one side in four rounds out of seven
                    for (String system : Rounds.order(round, List.of("artemis", "ssb", "in-wildfly-receive",
                            "in-wildfly", "loop", "in-wildfly-receive-again", "ssb-again"))) {
                        boolean counted = round == 0 && !"artemis".equals(system) && !system.endsWith("-again");
                        if (counted) {
                            markStatements();
                        }
                        switch (system) {
                            case "ssb" -> ssb.add(ssbDrain(ssbBean, SCALING));
                            case "ssb-again" -> ssbAgain.add(ssbDrain(ssbBean, SCALING));
                            case "in-wildfly-receive-again" ->
                                inWildFlyReceiveAgain.add(containerDrain(receive, readers, SCALING));
                            case "artemis" -> artemis.add(artemisDrain(artemisBean, SCALING));
                            // what the container allows with as many threads: the loop's statement inside WildFly
                            case "in-wildfly" -> inWildFly.add(containerDrain(readers, SCALING));
                            // ...and with the readers' own RECEIVE: what the container and ssb-jca's statement allow
                            case "in-wildfly-receive" ->
                                inWildFlyReceive.add(containerDrain(receive, readers, SCALING));
                            // what the database allows with as many threads: the same drain by the plain JDBC loop
                            default -> loop.add(loopDrain(readers, SCALING));
                        }
                        if (counted) {
                            receives.put(system, topStatement());
                            if ("ssb".equals(system) && readers == 8) {
                                // what ssb-jca runs per message beside its RECEIVE where it costs PostgreSQL the most
                                profileStatements(SCALING, report.scalingProfile, true, MOST_CALLED, 15);
                            }
                        }
                    }
                    toArtemis[round] = ssb.get(round).rate() / artemis.get(round).rate();
                    loopToArtemis[round] = loop.get(round).rate() / artemis.get(round).rate();
                    inWildFlyToArtemis[round] = inWildFly.get(round).rate() / artemis.get(round).rate();
                    inWildFlyReceiveToArtemis[round] = inWildFlyReceive.get(round).rate() / artemis.get(round).rate();
                    toLoop[round] = ssb.get(round).rate() / loop.get(round).rate();
                    toInWildFlyReceiveFirst[round] = ssb.get(round).rate() / inWildFlyReceive.get(round).rate();
                    toInWildFlyReceive[round] = Math.sqrt(toInWildFlyReceiveFirst[round]
                            * ssbAgain.get(round).rate() / inWildFlyReceiveAgain.get(round).rate());
                    toInWildFlyReceiveSteady[round] = Math.sqrt(ssb.get(round).steady() / inWildFlyReceive.get(round)
                            .steady() * ssbAgain.get(round).steady() / inWildFlyReceiveAgain.get(round).steady());
                    artemisToLoop[round] = artemis.get(round).rate() / loop.get(round).rate();
                }
            } finally {
                undeployOnce(ssbBean);
                undeployOnce(artemisBean);
            }
            Spread own = Spread.of(toInWildFlyReceive);
            toOwnLoop.add(own);
            Spread steady = Spread.of(toInWildFlyReceiveSteady);
            toOwnLoopSteady.add(steady);
            Spread first = Spread.of(toInWildFlyReceiveFirst);
            toOwnLoopFirst.add(first);
            rates.put(readers, new double[] {median(both(ssb, ssbAgain)),
                median(both(inWildFlyReceive, inWildFlyReceiveAgain))});
            report.headline(new Report.Headline(String.format(Locale.ROOT, "scaling, %d reader(s)", readers),
                    Spread.of(toArtemis), Spread.of(toLoop), own, Spread.of(artemisToLoop)));
            double ratio = Rounds.median(toArtemis);
            ratios.append(ratios.length() == 0 ? "" : " / ").append(Report.ratio(ratio));
            met &= ratio >= 1.2;
            report.row("scaling", String.format(Locale.ROOT, "%d reader(s): ssb-jca / Artemis (maxSession %d)",
                    readers, readers), Report.rate(median(ssb)) + " / " + Report.rate(median(artemis)),
                    String.format(Locale.ROOT, "ratio %.2f× (%s); %,d messages; ssb-jca %s; Artemis %s; the plain"
                            + " JDBC loop with %d thread(s): %s, %.2f× Artemis (%s; %s); the same loop inside"
                            + " WildFly (its transaction manager and an EJB call per message, no ssb-jca): %s, %.2f×"
                            + " Artemis (%s; %s); the loop inside WildFly running the readers' RECEIVE statement:"
                            + " %s, %.2f× Artemis (%s; %s)", ratio, eachRound(toArtemis), SCALING, cpuOf(ssb, false),
                            cpuOf(artemis, false), readers, Report.rate(median(loop)), Rounds.median(loopToArtemis),
                            eachRound(loopToArtemis), cpuOf(loop, true), Report.rate(median(inWildFly)),
                            Rounds.median(inWildFlyToArtemis), eachRound(inWildFlyToArtemis), cpuOf(inWildFly, false),
                            Report.rate(median(inWildFlyReceive)), Rounds.median(inWildFlyReceiveToArtemis),
                            eachRound(inWildFlyReceiveToArtemis), cpuOf(inWildFlyReceive, false))
                            + receivesNote(receives) + String.format(Locale.ROOT, "; WildFly's JIT compilation in the"
                                    + " timed windows, µs per message: ssb-jca %s, Artemis %s, the loop inside WildFly"
                                    + " running the readers' RECEIVE %s (all three deployed once)", jitOf(ssb),
                                    jitOf(artemis), jitOf(inWildFlyReceive))
                            + String.format(Locale.ROOT, "; the last delivery thread's first delivery, ms after the"
                                    + " drain's first, the median of the timed drains: ssb-jca %s, Artemis %s, the loop"
                                    + " inside WildFly running the readers' RECEIVE %s",
                                    lastStartOf(both(ssb, ssbAgain)), lastStartOf(artemis),
                                    lastStartOf(both(inWildFlyReceive, inWildFlyReceiveAgain)))
                            + String.format(Locale.ROOT, "; ssb-jca / that loop, each round the geometric mean of its"
                                    + " two pairs (one with ssb-jca's drain first, one with the loop's): %s, %s; the"
                                    + " first pairs alone: %s, %s; both pairs from a tenth of each drain to nine"
                                    + " tenths: %s, %s", own.text(), eachRound(toInWildFlyReceive),
                                    first.text(), eachRound(toInWildFlyReceiveFirst),
                                    steady.text(), eachRound(toInWildFlyReceiveSteady)));
        }
        report.target("per-message throughput ≥ 1.2× Artemis at 1, 2, 4 and 8 readers", "≥ 1.20× each",
                ratios.toString(), met);
        report.target49(2, "ssb-jca ≥ 0.97× the loop inside WildFly running its own RECEIVE, at 1, 2, 4 and 8 readers"
                + " (the scaling phase's rounds, two pairs a round in both orders)", "≥ 0.97× each",
                spreads(toOwnLoop) + "; not judged: the first pairs alone " + spreads(toOwnLoopFirst)
                        + ", both pairs from a tenth of each drain to nine tenths " + spreads(toOwnLoopSteady),
                Issue49.eachAtLeast(toOwnLoop, Issue49.ADAPTER_LINE));
        double[] at4 = rates.get(4);
        double[] at8 = rates.get(8);
        report.target49(2, "from 4 to 8 readers ssb-jca gains at least what that loop gains from 4 to 8 threads",
                "≥ the loop's", String.format(Locale.ROOT, "ssb-jca %.2f× (%s to %s), the loop %.2f× (%s to %s);"
                        + " the medians of both drains of each round", at8[0] / at4[0], Report.rate(at4[0]),
                        Report.rate(at8[0]), at8[1] / at4[1], Report.rate(at4[1]), Report.rate(at8[1])),
                Issue49.scalesAsWell(at4[0], at8[0], at4[1], at8[1]));
    }

    /**
     * @param receives the first round's most executed statement (the RECEIVE) by consumer: {executions, mean ms,
     *        plans, mean plan ms}
     * @return how often each consumer ran its RECEIVE per message, its mean time in PostgreSQL, how often PostgreSQL
     *         planned it per execution and the plan's mean time
     */
    private static String receivesNote(Map<String, double[]> receives) {
        StringBuilder note = new StringBuilder("; the RECEIVE statement in the first round, executions per message"
                + " and mean ms in PostgreSQL, then plans per execution and their mean ms:");
        String sep = " ";
        for (String[] consumer : new String[][] {{"ssb", "ssb-jca"}, {"loop", "the plain loop"},
            {"in-wildfly", "the loop inside WildFly"}, {"in-wildfly-receive", "with the readers' RECEIVE"}}) {
            double[] r = receives.get(consumer[0]);
            note.append(sep).append(String.format(Locale.ROOT, "%s %.3f of %.3f, planned %.3f of %.3f", consumer[1],
                    r[0] / SCALING, r[1], r[2] / Math.max(1, r[0]), r[3]));
            sep = ", ";
        }
        return note.toString();
    }

    /**
     * 4 readers at each depth; the smaller depths first, then the two deepest in {@link Rounds} (each round fills the
     * queue again), the target on the median of the rounds' CPU ratios.
     */
    private void depth() throws Exception {
        int last = DEPTHS.length - 1;
        DrainSum[] runs = new DrainSum[DEPTHS.length];
        for (int i = 0; i < last - 1; i++) {
            runs[i] = drainAtDepth(DEPTHS[i]);
        }
        runs[last - 1] = new DrainSum();
        runs[last] = new DrainSum();
        double[] cpuRatios = new double[Rounds.COUNT];
        double[] wallRatios = new double[Rounds.COUNT];
        for (int round = 0; round < Rounds.COUNT; round++) {
            DrainSum[] now = new DrainSum[2];
            for (int i : Rounds.order(round, List.of(last - 1, last))) {
                now[i - last + 1] = drainAtDepth(DEPTHS[i]);
                runs[i].add(now[i - last + 1]);
            }
            cpuRatios[round] = now[1].cpuPerMessage() / now[0].cpuPerMessage();
            wallRatios[round] = now[1].microsPerMessage() / now[0].microsPerMessage();
        }
        for (int i = 0; i <= last; i++) {
            DrainSum r = runs[i];
            String how = i < last - 1 ? (r.drains > 1 ? " (queue filled and drained " + r.drains + " times)"
                    : ", the first ones") : r.drains > 1 ? String.format(Locale.ROOT, ", the first %,d after each of"
                            + " %d fills (in rounds with the other deepest queue)", Math.min(DEPTHS[i],
                                    DEPTH_MEASURED), r.drains) : ", the first ones";
            report.row("depth", String.format(Locale.ROOT, "%,d messages queued, 4 readers", DEPTHS[i]),
                    String.format(Locale.ROOT, "%,.0f µs/msg", r.microsPerMessage()),
                    String.format(Locale.ROOT, "%s over %,d deliveries%s; CPU per message (WildFly + PostgreSQL,"
                            + " WildFly's JIT compilation left out) %,.0f µs; JIT compilation %,.0f µs%s",
                            Report.rate(1e6 / r.microsPerMessage()), r.messages, how, r.cpuPerMessage(),
                            r.withCompilers() - r.cpuPerMessage(), r.cpuSum == null ? ""
                                    : "; " + r.cpuSum.perMessage(r.cpuCounted, false))
                    + maintenanceNote(r.maintenanceRead ? r.maintenance : null));
        }
        report.row("depth", "largest / smallest depth: elapsed per message", Report.ratio(
                runs[last].microsPerMessage() / runs[0].microsPerMessage()), "wall clock, 4 readers: shared machine,"
                        + " noisy");
        report.row("depth", "largest / smallest depth: CPU per message", Report.ratio(runs[last].cpuPerMessage()
                / runs[0].cpuPerMessage()), "WildFly + PostgreSQL CPU time, JIT compilation left out: the cost itself");
        // Judged on CPU time (the cost itself), the deepest queue against the one before it (both time their first
        // 10,000 deliveries, so neither has a tail); both directions count, as "within ±15%" says. WildFly's JIT
        // compiler threads are left out: each deployment of the consumer brings classes to compile, and when the
        // compiler runs falls in one window or the next (see Method), whatever the depth.
        double cpu = Rounds.median(cpuRatios);
        report.row("depth", String.format(Locale.ROOT, "CPU per message: %,d / %,d queued", DEPTHS[last],
                DEPTHS[last - 1]), Spread.of(cpuRatios).text(), eachRound(cpuRatios));
        report.target(String.format(Locale.ROOT, "CPU per message at %,d queued within ±15%% of %,d", DEPTHS[last],
                DEPTHS[last - 1]), "0.85× to 1.15×", String.format(Locale.ROOT, "CPU %.2f× (with JIT compilation"
                        + " %.2f×, all rounds); wall clock %.2f×", cpu, runs[last].withCompilers()
                        / runs[last - 1].withCompilers(), Rounds.median(wallRatios)), cpu >= 0.85 && cpu <= 1.15);
    }

    /** What several drains (at one depth; of one side of the idle-groups phase) measured, summed. */
    private static final class DrainSum {
        int drains;
        long messages;
        double seconds;
        long cpuNanos;
        long compilerNanos;
        long cpuCounted;
        CpuMeter.Reading cpuSum;
        final long[] maintenance = new long[3];
        boolean maintenanceRead = true;

        void add(DrainSum o) {
            drains += o.drains;
            messages += o.messages;
            seconds += o.seconds;
            cpuNanos += o.cpuNanos;
            compilerNanos += o.compilerNanos;
            cpuCounted += o.cpuCounted;
            cpuSum = cpuSum == null ? o.cpuSum : o.cpuSum == null ? cpuSum : cpuSum.plus(o.cpuSum);
            for (int k = 0; k < 3; k++) {
                maintenance[k] += o.maintenance[k];
            }
            maintenanceRead &= o.maintenanceRead;
        }

        double microsPerMessage() {
            return seconds * 1e6 / messages;
        }

        /** @return WildFly + PostgreSQL CPU per message, µs, WildFly's JIT compiler threads left out */
        double cpuPerMessage() {
            return cpuCounted == 0 ? Double.NaN : (cpuNanos - compilerNanos) / 1e3 / cpuCounted;
        }

        double withCompilers() {
            return cpuCounted == 0 ? Double.NaN : cpuNanos / 1e3 / cpuCounted;
        }
    }

    /**
     * Fills the queue to {@code depth} messages and times its first deliveries (10,000 in a full run); a
     * smaller queue is filled and drained until as many deliveries were timed.
     */
    private DrainSum drainAtDepth(int depth) throws Exception {
        DrainSum run = new DrainSum();
        int fills = depth <= DEPTH_MEASURED ? Math.max(1, DEPTH_MEASURED / depth) : 1;
        int measured = Math.min(depth, DEPTH_MEASURED);
        for (int r = 0; r < fills; r++) {
            run.add(lastDrain(drainSsb(BenchDeployments.ssbConsumer(4), depth, measured), measured));
        }
        return run;
    }

    /** @return what the last {@link #drainSsb} of {@code measured} messages at {@code rate} measured */
    private DrainSum lastDrain(double rate, int measured) {
        DrainSum run = new DrainSum();
        run.seconds = measured / rate;
        run.messages = measured;
        run.drains = 1;
        if (lastMaintenance == null) {
            run.maintenanceRead = false;
        } else {
            System.arraycopy(lastMaintenance, 0, run.maintenance, 0, 3);
        }
        if (lastCpuReading != null) {
            run.cpuNanos = lastCpuReading.wildflyNanos() + lastCpuReading.postgresNanos();
            run.compilerNanos = lastCompilerNanos;
            run.cpuCounted = cpuMessages;
            run.cpuSum = lastCpuReading;
        }
        return run;
    }

    /**
     * The sending side, 4 callers, one container transaction per call, nothing consuming: ssb-jca's BEGIN DIALOG +
     * SEND through the connection factory (in one call, the target's figure, and as two calls) against one persistent
     * send through Artemis's {@code java:/JmsXA}, and the plain JDBC loop writing the same rows; in {@link Rounds}.
     */
    /**
     * Scheduled sends (docs/guide/delayed-sends.md): how late after its due time each reaches onMessage, with 4
     * readers waiting on the queue; the due time is taken before the scheduling call, so lateness is never understated.
     */
    private void delayed() throws Exception {
        loader.clear();
        JavaArchive consumer = BenchDeployments.ssbConsumer(4);
        server.deploy(consumer);
        try {
            long[] nanos = control.lateness(DELAYED, DELAYED_RATE, BODY, DELAYED_MILLIS);
            assertEquals(0, Arrays.stream(nanos).filter(n -> n == Long.MIN_VALUE).count(),
                    "scheduled sends never received");
            long early = Arrays.stream(nanos).filter(n -> n < 0).count();
            assertEquals(0, early, "scheduled sends received before their due time");
            report.row("delayed", String.format(Locale.ROOT, "%,d sends delayed %,d ms, %d/s, 4 readers: lateness p50 /"
                    + " p99 / max", DELAYED, DELAYED_MILLIS, DELAYED_RATE), triple(percentilesOf(nanos)),
                    "after the due time; on the portable schema a waiting reader's look at the due time sends it");
        } finally {
            server.undeploy(consumer);
        }
    }

    /**
     * Issue 48: what tracing costs when it is on. The server gets the {@code opentelemetry} subsystem (every trace
     * sampled, exported over OTLP/HTTP to an {@link OtlpSink} in this JVM) and is reloaded; then one CDI deployment's
     * bean with 4 readers drains the throughput phase's messages, in {@link Rounds}, once without a trace context and
     * once with each message carrying the same sampled one (the adapter's consumer span per delivery, exported). Each
     * drain checks what the bean found current in every call.
     */
    private void tracing() throws Exception {
        try (OtlpSink sink = OtlpSink.start(SsbLoader.QUEUE)) {
            server.enableTracing(sink.endpoint());
            control = server.control();
            JavaArchive consumer = BenchDeployments.ssbTracedConsumer();
            int n = THROUGHPUT;
            // the paths through the reloaded server's classes, once each, not timed
            int warm = Math.max(CONVERSATIONS, n / 4 / CONVERSATIONS * CONVERSATIONS); // what the loader loads
            drainSsb(consumer, warm, warm, () -> { }, TraceCounts.TRACE_PARENT);
            drainSsb(consumer, warm, warm, () -> { }, null);
            control.takeTraceCounts();
            List<Drain> traced = new ArrayList<>();
            List<Drain> untraced = new ArrayList<>();
            double[] ratio = new double[Rounds.COUNT];
            for (int round = 0; round < Rounds.COUNT; round++) {
                for (String system : Rounds.order(round, List.of("untraced", "traced"))) {
                    boolean on = "traced".equals(system);
                    double rate = drainSsb(consumer, n, n, () -> { }, on ? TraceCounts.TRACE_PARENT : null).rate();
                    (on ? traced : untraced).add(new Drain(rate, lastCpuReading, cpuMessages, lastCompilerNanos));
                    long[] seen = control.takeTraceCounts();
                    assertEquals(on ? List.of((long) n, 0L, 0L) : List.of(0L, (long) n, 0L),
                            List.of(seen[0], seen[1], seen[2]), "the calls of a " + system + " drain found {a"
                                    + " consumer span of the messages' trace, no span, another}");
                }
                ratio[round] = traced.get(round).rate() / untraced.get(round).rate();
            }
            long tracedDeliveries = warm + (long) n * Rounds.COUNT;
            long[] exported = awaitExported(sink, tracedDeliveries);
            report.row("tracing", "ssb-jca, 4 readers, server with the opentelemetry subsystem: messages without a"
                    + " trace context", Report.rate(median(untraced)), "no span made" + roundsNote(untraced) + "; "
                    + cpuOf(untraced, false));
            report.row("tracing", "the same, each message carrying a sampled trace context", Report.rate(
                    median(traced)), "a CONSUMER span per delivery, exported" + roundsNote(traced) + "; "
                    + cpuOf(traced, false));
            report.row("tracing", "traced / without a context", Spread.of(ratio).text(), "what tracing costs when"
                    + " on; " + eachRound(ratio));
            report.row("tracing", "consumer spans the server exported, of the traced deliveries", String.format(
                    Locale.ROOT, "%,d of %,d", exported[2], tracedDeliveries), String.format(Locale.ROOT, "the"
                            + " warm-up's drain included; %,d OTLP/HTTP requests, %.0f bytes per span as sent",
                            exported[0], exported[1] / (double) Math.max(1, exported[2])));
        }
    }

    /**
     * Waits until the sink has {@code expected} spans, or has received none for 15 s (the exporter's batch delay is
     * 5 s), at most 2 minutes.
     *
     * @return the sink's last counts
     */
    private static long[] awaitExported(OtlpSink sink, long expected) {
        long deadline = System.nanoTime() + 120_000_000_000L;
        long[] last = sink.counts();
        long quietSince = System.nanoTime();
        while (last[2] < expected && System.nanoTime() < deadline
                && System.nanoTime() - quietSince < 15_000_000_000L) {
            java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
            long[] now = sink.counts();
            if (now[2] != last[2]) {
                quietSince = System.nanoTime();
            }
            last = now;
        }
        return last;
    }

    private void outbound() throws Exception {
        int n = SCALING;
        loader.clear();
        List<Drain> oneCall = new ArrayList<>();
        List<Drain> twoCalls = new ArrayList<>();
        List<Drain> artemis = new ArrayList<>();
        List<Drain> loop = new ArrayList<>();
        double[] toArtemis = new double[Rounds.COUNT];
        double[] twoToArtemis = new double[Rounds.COUNT];
        double[] toLoop = new double[Rounds.COUNT];
        double[] artemisToLoop = new double[Rounds.COUNT];
        for (int round = 0; round < Rounds.COUNT; round++) {
            for (String way : Rounds.order(round, List.of("ssb-one-call", "ssb", "artemis", "loop"))) {
                switch (way) {
                    case "ssb-one-call" -> oneCall.add(ssbOutbound(way, n, round == 0));
                    case "ssb" -> twoCalls.add(ssbOutbound(way, n, false));
                    case "artemis" -> artemis.add(artemisOutbound(n));
                    default -> loop.add(loopOutbound(n));
                }
            }
            toArtemis[round] = oneCall.get(round).rate() / artemis.get(round).rate();
            twoToArtemis[round] = twoCalls.get(round).rate() / artemis.get(round).rate();
            toLoop[round] = oneCall.get(round).rate() / loop.get(round).rate();
            artemisToLoop[round] = artemis.get(round).rate() / loop.get(round).rate();
        }
        String calls = String.format(Locale.ROOT, "%,d calls", n);
        report.row("outbound", "ssb-jca: BEGIN DIALOG and SEND in one call (beginDialogAndSend), 4 callers",
                Report.rate(median(oneCall)), calls + ", each its own container transaction" + roundsNote(oneCall)
                        + "; " + cpuOf(oneCall, false));
        report.row("outbound", "ssb-jca: BEGIN DIALOG, then SEND (two calls), 4 callers", Report.rate(median(twoCalls)),
                calls + ", each its own container transaction" + roundsNote(twoCalls) + "; " + cpuOf(twoCalls, false));
        report.row("outbound", "Artemis: java:/JmsXA persistent send per call, 4 callers", Report.rate(median(artemis)),
                calls + roundsNote(artemis) + "; " + cpuOf(artemis, false));
        report.row("outbound", "plain JDBC loop: the same rows in one statement, XA one-phase, 4 threads",
                Report.rate(median(loop)), calls + ", no container" + roundsNote(loop) + "; " + cpuOf(loop, true));
        report.row("outbound", "ssb-jca / outbound JDBC ceiling; Artemis / outbound JDBC ceiling",
                Spread.of(toLoop).text() + "; " + Spread.of(artemisToLoop).text(), "");
        double ratio = Rounds.median(toArtemis);
        report.row("outbound", "ssb-jca / Artemis: one call; two calls", Spread.of(toArtemis).text() + "; "
                + Spread.of(twoToArtemis).text(), eachRound(toArtemis) + (Rounds.COUNT == 1 ? ""
                        : "; two calls: " + Rounds.each(twoToArtemis)));
        report.headline(new Report.Headline("sending side, 4 callers, beginDialogAndSend (the ceiling: the outbound"
                + " JDBC loop)", Spread.of(toArtemis), Spread.of(toLoop), null, Spread.of(artemisToLoop)));
        report.target("outbound ≥ 1.0× Artemis (4 callers; beginDialogAndSend, two calls in brackets)", "≥ 1.00×",
                Spread.of(toArtemis).text() + " (" + Spread.of(twoToArtemis).text() + ")", ratio >= 1.0);
    }

    /**
     * A reply from inside the delivery, 4 readers, one message per transaction: ssb-jca's MDB SENDs on the conversation
     * it received from (the connection factory runs the SEND on the reader's connection: one XA branch for both), the
     * Artemis MDB sends through {@code java:/JmsXA} to a second queue (two resources in the transaction). Every reply
     * is counted in its queue after the run.
     */
    private void reply() throws Exception {
        int n = SCALING;
        List<Drain> ssb = new ArrayList<>();
        List<Drain> artemis = new ArrayList<>();
        double[] toArtemis = new double[Rounds.COUNT];
        for (int round = 0; round < Rounds.COUNT; round++) {
            for (String system : Rounds.order(round, List.of("ssb", "artemis"))) {
                if ("ssb".equals(system)) {
                    if (round == 0) {
                        markStatements();
                    }
                    ssb.add(ssbDrain(BenchDeployments.ssbReplyConsumer(), n, () -> assertEquals(n,
                            loader.depth(SsbLoader.CLIENT_QUEUE), "every ssb-jca reply committed")));
                    if (round == 0) {
                        profileStatements(n, report.replyProfile, false, MOST_TIME, 15);
                    }
                } else {
                    artemis.add(artemisDrain(BenchDeployments.artemisReplyConsumer(), n));
                    assertEquals(n, server.artemisDepth(REPLY_QUEUE), "every Artemis reply committed");
                    assertEquals(n, server.artemisPurge(REPLY_QUEUE));
                }
            }
            toArtemis[round] = ssb.get(round).rate() / artemis.get(round).rate();
        }
        report.row("reply", "ssb-jca: MDB receives and SENDs a reply on the conversation, 4 readers",
                Report.rate(median(ssb)), String.format(Locale.ROOT, "%,d messages, one per transaction%s; %s", n,
                        roundsNote(ssb), cpuOf(ssb, false)));
        report.row("reply", "Artemis: MDB receives and sends a reply through java:/JmsXA, maxSession 4",
                Report.rate(median(artemis)), String.format(Locale.ROOT, "%,d messages, one per transaction%s; %s",
                        n, roundsNote(artemis), cpuOf(artemis, false)));
        double ratio = Rounds.median(toArtemis);
        report.row("reply", "ssb-jca / Artemis", Spread.of(toArtemis).text(), eachRound(toArtemis));
        report.headline(new Report.Headline("reply from inside the delivery, 4 readers", Spread.of(toArtemis), null,
                null, null));
        report.target("reply from inside an MDB's delivery ≥ 1.0× Artemis (4 readers)", "≥ 1.00×",
                Spread.of(toArtemis).text(), ratio >= 1.0);
    }

    /**
     * Issue 16: the same drain (4 readers, one per transaction) from a work table of the application's (a table
     * activation, transactional mode: each row deleted with its delivery) and from a broker queue.
     */
    private void tableQueue() throws Exception {
        int n = SCALING;
        Drain broker = ssbDrain(BenchDeployments.ssbConsumer(4), n);
        loader.declareWorkTable();
        loader.loadWorkTable(n, BODY);
        JavaArchive consumer = BenchDeployments.ssbTableConsumer();
        control.arm(n);
        server.deploy(consumer);
        long[] r = awaitTimed(n, () -> server.undeploy(consumer));
        Drain tableCpu = new Drain(0, lastCpuReading, cpuMessages);
        assertTrue(r[1] != 0, consumer.getName() + " did not finish: " + Arrays.toString(r));
        assertEquals(0, loader.workTableDepth(), "the work table is empty after the run");
        requireOneMessagePerTransaction(consumer.getName(), r);
        double table = n * 1e9 / (r[1] - r[0]);
        log("%s: %,d rows in %.2f s = %s", consumer.getName(), n, (r[1] - r[0]) / 1e9, Report.rate(table));
        report.row("table", "ssb-jca table queue (TableRowListener, transactional, rows deleted), 4 readers",
                Report.rate(table), String.format(Locale.ROOT, "%,d rows, one per transaction; %s", n,
                        cpuOf(List.of(tableCpu), false)));
        report.row("table", "ssb-jca broker queue (BrokerMessageListener), 4 readers", Report.rate(broker.rate()),
                String.format(Locale.ROOT, "%,d messages, one per transaction; %s", n, cpuOf(List.of(broker), false)));
        report.row("table", "table queue / broker queue", Report.ratio(table / broker.rate()), "");
    }

    /**
     * Issue 49: each message's MDB writes a payment (an INSERT and an UPDATE of a balance) to the broker's own
     * database, 4 readers or sessions, one message per transaction, three variants in interleaved rounds: ssb-jca on
     * the delivery's connection ({@code jdbcConnection()}: one branch), ssb-jca through an XA datasource of the same
     * database (two branches), Artemis through an XA datasource (two resources). Beside msg/s, PostgreSQL's own counts
     * per message ({@link PgCounters}), read before and after each run once they settle.
     */
    private void oneDatabase() throws Exception {
        int n = SCALING;
        createPayments();
        List<String> variants = List.of("ssb", "ssb-xa", "artemis-xa");
        Map<String, List<Drain>> drains = new HashMap<>();
        Map<String, List<PgCounters.PerMessage>> counts = new HashMap<>();
        double[] toArtemis = new double[Rounds.ONE_DATABASE];
        double[] toXa = new double[Rounds.ONE_DATABASE];
        JavaArchive driver = BenchDeployments.driver();
        server.deploy(driver);
        try {
            for (int round = 0; round < Rounds.ONE_DATABASE; round++) {
                for (String variant : Rounds.order(round, variants)) {
                    JavaArchive consumer = switch (variant) {
                        case "ssb" -> BenchDeployments.ssbOneDbConsumer();
                        case "ssb-xa" -> BenchDeployments.ssbOneDbXaConsumer(pg);
                        default -> BenchDeployments.artemisOneDbConsumer(pg);
                    };
                    boolean artemis = variant.startsWith("artemis");
                    int queued = n;
                    if (artemis) {
                        queued = fillArtemis(n, "One database, round " + (round + 1));
                    } else {
                        assertEquals(n, loadSsb(n), "messages queued");
                    }
                    PgCounters before = PgCounters.settled(pg);
                    control.arm(queued);
                    server.deploy(consumer);
                    long[] r = awaitTimed(queued, () -> server.undeploy(consumer));
                    assertTrue(r[1] != 0, consumer.getName() + " did not finish: " + Arrays.toString(r));
                    requireOneMessagePerTransaction(consumer.getName(), r);
                    PgCounters after = PgCounters.settled(pg);
                    assertEquals(queued, paymentsWritten(), consumer.getName() + ": a payment per message");
                    if (artemis) {
                        assertEquals(0, awaitArtemisDepth(0), "the Artemis queue is empty after the run");
                    } else {
                        assertEquals(0, loader.depth(), "the queue is empty after the run");
                        loader.clear();
                    }
                    double rate = queued * 1e9 / (r[1] - r[0]);
                    PgCounters.PerMessage perMessage = after.perMessageSince(before, queued);
                    log("%s: %,d in %.2f s = %s; %s", consumer.getName(), queued, (r[1] - r[0]) / 1e9,
                            Report.rate(rate), perMessage.text());
                    drains.computeIfAbsent(variant, v -> new ArrayList<>())
                            .add(new Drain(rate, lastCpuReading, cpuMessages));
                    counts.computeIfAbsent(variant, v -> new ArrayList<>()).add(perMessage);
                }
                toArtemis[round] = drains.get("ssb").get(round).rate() / drains.get("artemis-xa").get(round).rate();
                toXa[round] = drains.get("ssb").get(round).rate() / drains.get("ssb-xa").get(round).rate();
            }
        } finally {
            server.undeploy(driver);
        }
        String[][] rows = {
            {"ssb", "ssb-jca: payment on the delivery's connection (jdbcConnection()), 4 readers"},
            {"ssb-xa", "ssb-jca: payment through an XA datasource, 4 readers"},
            {"artemis-xa", "Artemis: payment through an XA datasource, maxSession 4"}};
        for (String[] row : rows) {
            List<Drain> d = drains.get(row[0]);
            List<PgCounters.PerMessage> c = counts.get(row[0]);
            report.row("one database", row[1], Report.rate(median(d)), String.format(Locale.ROOT,
                    "%,d messages, one per transaction%s; %s; each round's counts: %s", n, roundsNote(d),
                    cpuOf(d, false), c.stream().map(PgCounters.PerMessage::text)
                            .collect(java.util.stream.Collectors.joining(" | "))));
            report.row("one database", row[1] + ": prepared transactions; WAL flushes, per message",
                    String.format(Locale.ROOT, "%.2f; %.2f", Rounds.median(c.stream()
                            .mapToDouble(PgCounters.PerMessage::prepares).toArray()), Rounds.median(c.stream()
                                    .mapToDouble(PgCounters.PerMessage::walSyncs).toArray())),
                    "the medians of the rounds: PREPARE TRANSACTION statements (pg_stat_statements), WAL flushes"
                            + " (pg_stat_wal.wal_sync)");
        }
        Spread ratio = Spread.of(toArtemis);
        report.row("one database", "ssb-jca jdbcConnection() / Artemis XA datasource", ratio.text(),
                eachRound(toArtemis));
        report.row("one database", "ssb-jca jdbcConnection() / ssb-jca XA datasource", Spread.of(toXa).text(),
                eachRound(toXa));
        report.headline(new Report.Headline("one database: a payment per message, 4 readers (jdbcConnection()"
                + " against Artemis with an XA datasource)", ratio, null, null, null));
        report.target49(1, "one database: MDB writing a payment, ssb-jca jdbcConnection() ≥ 2× Artemis with an XA"
                + " datasource (4 readers)", "≥ 2.00×", ratio.text(), ratio.median() >= Issue49.ONE_DATABASE_LINE);
    }

    /**
     * Sends {@code sent} messages to the Artemis queue and returns how many it then holds. It has held one fewer (seen
     * twice, 9,999 of 10,000, both times while Artemis paged the queue at WildFly's default 10 MiB; the cause not
     * found): the run then drains and counts what the queue held, and the report says so; more than one short is a
     * failure.
     *
     * @param where the drain, for the report's note ("One database, round 3", "Artemis drain (its jar)")
     */
    private int fillArtemis(int sent, String where) throws Exception {
        control.fillArtemis(sent, BODY);
        int queued = (int) awaitArtemisDepth(sent);
        if (queued == sent) {
            return queued;
        }
        assertTrue(queued < sent && queued >= sent - 1, "messages on the Artemis queue before the run: " + queued
                + " of " + sent);
        String text = String.format(Locale.ROOT, "%s: Artemis's queue held %,d of the %,d messages sent before the run"
                + " (its message-count read for 30 s); that run drained and counted the %,d it held.", where, queued,
                sent, queued);
        log("%s", text);
        report.notes.add(text);
        return queued;
    }

    /** The one-database phase's tables: {@value Payments#ACCOUNTS} accounts, no payment. */
    private void createPayments() throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS bench_payment, bench_account");
            s.execute("CREATE TABLE bench_account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
            s.execute("CREATE TABLE bench_payment (id BIGSERIAL PRIMARY KEY, account INT NOT NULL,"
                    + " amount INT NOT NULL)");
            s.execute("INSERT INTO bench_account SELECT g, 0 FROM generate_series(0, " + (Payments.ACCOUNTS - 1)
                    + ") g");
        }
    }

    /** @return the payments the last run wrote, which are then deleted */
    private long paymentsWritten() throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            return s.executeUpdate("DELETE FROM bench_payment");
        }
    }

    /**
     * The same drain with and without {@value #IDLE_GROUPS} (full run) open conversations that have no message left
     * in the queue: a group pick that walked idle groups would cost more per message with them. Judged on CPU per
     * message without WildFly's JIT compiler threads, as the depth target is: each drain deploys the consumer again.
     */
    private void idleGroups() throws Exception {
        int[] idle = {0, IDLE_GROUPS};
        List<DrainSum> sums = List.of(new DrainSum(), new DrainSum());
        List<List<Drain>> drains = List.of(new ArrayList<>(), new ArrayList<>());
        double[] ratios = new double[Rounds.COUNT];
        for (int round = 0; round < Rounds.COUNT; round++) {
            DrainSum[] now = new DrainSum[2];
            for (int i : Rounds.order(round, List.of(0, 1))) {
                idleToLoad = idle[i];
                try {
                    double rate = drainSsb(BenchDeployments.ssbConsumer(4), SCALING, SCALING);
                    now[i] = lastDrain(rate, SCALING);
                    drains.get(i).add(new Drain(rate, lastCpuReading, cpuMessages));
                } finally {
                    idleToLoad = 0;
                }
                sums.get(i).add(now[i]);
            }
            ratios[round] = now[1].cpuPerMessage() / now[0].cpuPerMessage();
        }
        for (int i = 0; i < idle.length; i++) {
            DrainSum r = sums.get(i);
            report.row("idle", String.format(Locale.ROOT, "%,d idle conversation groups beside %d busy ones, 4 readers",
                    idle[i], CONVERSATIONS), Report.rate(median(drains.get(i))), String.format(Locale.ROOT,
                            "%,d messages%s; CPU per message (WildFly + PostgreSQL, WildFly's JIT compilation left"
                                    + " out) %,.0f µs; JIT compilation %,.0f µs%s", SCALING, roundsNote(drains.get(i)),
                                    r.cpuPerMessage(), r.withCompilers() - r.cpuPerMessage(), r.cpuSum == null ? ""
                                            : "; " + r.cpuSum.perMessage(r.cpuCounted, false))
                    + maintenanceNote(r.maintenanceRead ? r.maintenance : null));
        }
        double ratio = Rounds.median(ratios);
        report.row("idle", "CPU per message: with / without the idle groups", Spread.of(ratios).text(),
                eachRound(ratios) + "; WildFly's JIT compilation left out");
        report.target(String.format(Locale.ROOT, "CPU per message with %,d idle groups within ±15%% of none",
                IDLE_GROUPS), "0.85× to 1.15×", String.format(Locale.ROOT, "%.2f× (with JIT compilation %.2f×, all"
                        + " rounds)", ratio, sums.get(1).withCompilers() / sums.get(0).withCompilers()),
                ratio >= 0.85 && ratio <= 1.15);
    }

    // ---- runs

    private int loadSsb(int messages) throws SQLException {
        return loadSsb(messages, null);
    }

    /** @param traceContext what each message carries as its sender's trace context, or null for none */
    private int loadSsb(int messages, String traceContext) throws SQLException {
        loader.clear();
        if (idleToLoad > 0) {
            loader.load(idleToLoad, 0, BODY);
        }
        loader.load(CONVERSATIONS, messages / CONVERSATIONS, BODY, traceContext);
        return messages / CONVERSATIONS * CONVERSATIONS;
    }

    /** Fills the queue with {@code queued} messages, deploys the consumer, times {@code measured} deliveries. */
    private double drainSsb(JavaArchive consumer, int queued, int measured) throws Exception {
        return drainSsb(consumer, queued, measured, () -> { });
    }

    /** A check of a run's database state, before the tables are cleared. */
    @FunctionalInterface
    private interface AfterRun {
        void check() throws Exception;
    }

    /** As above; {@code afterRun} checks the database before it is cleared. */
    private double drainSsb(JavaArchive consumer, int queued, int measured, AfterRun afterRun) throws Exception {
        return drainSsb(consumer, queued, measured, afterRun, null).rate();
    }

    /** As above, each message carrying {@code traceContext} (none when null); its rates over two spans. */
    private Timed drainSsb(JavaArchive consumer, int queued, int measured, AfterRun afterRun, String traceContext)
            throws Exception {
        loadSsb(queued, traceContext);
        control.arm(measured);
        settleBeforeDrain(consumer.getName());
        long[] gcBefore = control.gcTotals();
        start(consumer);
        long[] r;
        try {
            CpuWindow w = cpuWindow(measured);
            Map<Long, Long> compilers = cpu == null ? Map.of() : cpu.compilerTicks();
            long[] maintenance = cpu == null ? null : cpu.maintenance();
            lastWindowFrom = System.nanoTime();
            r = control.await(RUN_TIMEOUT);
            lastWindowTo = System.nanoTime();
            lastCompilerNanos = cpu == null ? 0 : cpu.compilerNanosSince(compilers);
            lastMaintenance = maintenanceSince(maintenance);
            lastCpuReading = since(w.before);
            cpuMessages = measured - w.committed;
        } finally {
            stop(consumer);
        }
        assertTrue(r[1] != 0, consumer.getName() + " did not finish: " + Arrays.toString(r));
        if (queued == measured) {
            assertEquals(0, loader.depth(), "the queue is empty after the run");
        }
        afterRun.check();
        if (!consumer.getName().equals(BenchDeployments.ssbBatchConsumer().getName())) {
            requireOneMessagePerTransaction(consumer.getName(), r);
        }
        Timed timed = Timed.of(r, measured);
        log("%s: %,d of %,d queued in %.2f s = %s%s%s (rolled back: %d; %,d transactions committed, at most %d"
                + " message(s) each)", consumer.getName(), measured, queued, (r[1] - r[0]) / 1e9,
                Report.rate(timed.rate()), timed.tenthsText(), collectionsSince(gcBefore), r[4], r[5], r[6]);
        loader.clear();
        return timed;
    }

    /**
     * @param before {@link CpuMeter#maintenance()} at the start of a window, or null
     * @return what PostgreSQL's maintenance did since: {autovacuum runs, autoanalyze runs, checkpoints}, or null
     */
    private long[] maintenanceSince(long[] before) {
        if (before == null || before[0] < 0) {
            return null;
        }
        long[] now = cpu.maintenance();
        return now[0] < 0 ? null : new long[] {now[0] - before[0], now[1] - before[1], now[2] - before[2]};
    }

    /** @return "; PostgreSQL's maintenance in the window: ..." for a depth row's note, or "" when not read */
    private static String maintenanceNote(long[] sum) {
        return sum == null ? "" : String.format(Locale.ROOT, "; in the timed windows PostgreSQL ran %d autovacuum and"
                + " %d autoanalyze runs of ssb's tables and %d checkpoints", sum[0], sum[1], sum[2]);
    }

    /**
     * A per-message figure counts only if every transaction of its run took one message (receiveBatchSize 1): a
     * RECEIVE that took more would inflate it (as PostgreSQL's RECEIVE once did in one plan shape).
     *
     * @param r what {@code control.await} returned: committed messages at 2, transactions at 5, the most messages
     *        one transaction took at 6
     */
    private void requireOneMessagePerTransaction(String consumer, long[] r) {
        assertEquals(1, r[6], consumer + ": a transaction of this per-message run took " + r[6]
                + " messages; its figure would be inflated");
        assertEquals(r[2], r[5], consumer + ": committed messages and committed transactions differ");
        perMessageTransactions += r[5];
    }

    private long perMessageTransactions;

    /** What Artemis may hold in memory per address before it pages: more than the largest backlog (20,000). */
    private static final long ARTEMIS_MEMORY_BYTES = 100L << 20;

    /**
     * The consumers deployed once whose delivery starts and stops for each drain, by archive name: their bean's EJB
     * name. What is deployed on the server, kept beside it: {@link #deployOnce} adds, {@link #undeployOnce} removes.
     */
    private final Map<String, String> deployedOnce = new HashMap<>();

    /**
     * Deploys {@code consumer} for the drains that follow and stops its bean's delivery (the queue is empty, so its
     * readers or sessions took nothing): each drain then starts and stops the delivery of this deployment.
     */
    private void deployOnce(JavaArchive consumer, String ejbName) throws Exception {
        server.deploy(consumer);
        server.delivery(consumer, ejbName, false);
        deployedOnce.put(consumer.getName(), ejbName);
    }

    private void undeployOnce(JavaArchive consumer) throws Exception {
        deployedOnce.remove(consumer.getName());
        server.undeploy(consumer);
    }

    /** A drain's start: its bean's delivery if deployed once ({@link #deployOnce}), else its deployment. */
    private void start(JavaArchive consumer) throws Exception {
        String ejbName = deployedOnce.get(consumer.getName());
        if (ejbName == null) {
            server.deploy(consumer);
        } else {
            server.delivery(consumer, ejbName, true);
        }
    }

    /** A drain's end: the counterpart of {@link #start}. */
    private void stop(JavaArchive consumer) throws Exception {
        String ejbName = deployedOnce.get(consumer.getName());
        if (ejbName == null) {
            server.undeploy(consumer);
        } else {
            server.delivery(consumer, ejbName, false);
        }
    }

    private Timed drainArtemis(JavaArchive consumer, int messages) throws Exception {
        int queued = fillArtemis(messages, "Artemis drain (" + consumer.getName() + ")");
        control.arm(queued);
        settleBeforeDrain(consumer.getName());
        long[] gcBefore = control.gcTotals();
        start(consumer);
        long[] r = awaitTimed(queued, () -> stop(consumer));
        assertTrue(r[1] != 0, consumer.getName() + " did not finish: " + Arrays.toString(r));
        assertEquals(0, awaitArtemisDepth(0), "the Artemis queue is empty after the run");
        requireOneMessagePerTransaction(consumer.getName(), r);
        Timed timed = Timed.of(r, queued);
        log("%s: %,d in %.2f s = %s%s%s (rolled back: %d)", consumer.getName(), queued, (r[1] - r[0]) / 1e9,
                Report.rate(timed.rate()), timed.tenthsText(), collectionsSince(gcBefore), r[4]);
        return timed;
    }

    /**
     * {@code n} sending calls of one way ({@code way} as {@code BenchControl} names it), 4 callers, then every message
     * counted in the queue and the queue emptied.
     *
     * @param profile whether the statement profile of the outbound run is read from these calls
     */
    private Drain ssbOutbound(String way, int n, boolean profile) throws Exception {
        if (profile) {
            markStatements();
        }
        CpuMeter.Reading before = cpuNow();
        lastWindowFrom = System.nanoTime();
        long[] sent = control.outbound(way, 4, n, BODY);
        lastWindowTo = System.nanoTime();
        CpuMeter.Reading used = since(before);
        if (profile) {
            profileStatements(n, report.outboundProfile, false, MOST_TIME, 15);
        }
        assertEquals(0, sent[1], "no ssb-jca send failed (" + way + ")");
        assertEquals(n, loader.depth(), "every ssb-jca send committed its message (" + way + ")");
        loader.clear();
        return new Drain(n * 1e9 / sent[0], used, n);
    }

    /** {@code n} persistent sends through Artemis's {@code java:/JmsXA}, 4 callers; then the queue is emptied. */
    private Drain artemisOutbound(int n) throws Exception {
        CpuMeter.Reading before = cpuNow();
        long[] sent = control.outbound("artemis", 4, n, BODY);
        CpuMeter.Reading used = since(before);
        assertEquals(0, sent[1], "no Artemis send failed");
        assertEquals(n, awaitArtemisDepth(n), "every Artemis send committed its message");
        emptyArtemis(n);
        return new Drain(n * 1e9 / sent[0], used, n);
    }

    /** What the database allows for the outbound rows: one statement and one commit per call, no container. */
    private Drain loopOutbound(int n) throws Exception {
        loader.clear();
        CpuMeter.Reading before = cpuNow();
        lastWindowFrom = System.nanoTime();
        CpuMeter.Reading[] used = {null};
        long[] sent = JdbcCeiling.send(pg, 4, n, BODY, () -> {
            lastWindowTo = System.nanoTime();
            used[0] = since(before);
        });
        assertEquals(n, loader.depth(), "every ceiling call committed its message");
        loader.clear();
        return new Drain(sent[1] * 1e9 / sent[0], used[0], n);
    }

    /**
     * One drain or run of calls: its rate, the CPU of its timed window (null when not read) and its messages, WildFly's
     * JIT compilation in that window, and its rate from a tenth of its messages to nine tenths ({@link Timed#steady};
     * NaN where not measured).
     */
    private record Drain(double rate, CpuMeter.Reading cpu, long cpuMessages, long compilerNanos, double steady,
            double lastStartMillis) {

        /** A drain whose JIT compilation and middle span are not read. */
        Drain(double rate, CpuMeter.Reading cpu, long cpuMessages) {
            this(rate, cpu, cpuMessages, 0);
        }

        /** A drain whose middle span is not read. */
        Drain(double rate, CpuMeter.Reading cpu, long cpuMessages, long compilerNanos) {
            this(rate, cpu, cpuMessages, compilerNanos, Double.NaN, Double.NaN);
        }

        /** A drain timed in WildFly ({@link Timed}). */
        Drain(Timed timed, CpuMeter.Reading cpu, long cpuMessages, long compilerNanos) {
            this(timed.rate(), cpu, cpuMessages, compilerNanos, timed.steady(), timed.lastStartMillis());
        }
    }

    /**
     * A drain's rates, timed in WildFly by the {@code Recorder}.
     *
     * @param rate the whole drain: from the first delivery's start to the last message's commit
     * @param steady from the commit that brought the committed messages to a tenth of the drain's to the one that
     *     brought them to nine tenths: without the start, where a bean deployed for the drain runs its first
     *     deliveries before the JIT has compiled their paths, nor the end, where the threads run out of work one by
     *     one; NaN when a mark is missing
     * @param first the first tenth: from the first delivery's start to the commit that brought it to a tenth
     * @param startsMillis each delivery thread's first delivery, ms after the drain's first, in order
     */
    private record Timed(double rate, double steady, double first, List<Double> startsMillis) {

        /**
         * @param r what {@code control.await} returned for a run of {@code n} messages, one per transaction
         * @param n the run's messages
         */
        static Timed of(long[] r, int n) {
            double rate = n * 1e9 / (r[1] - r[0]);
            List<Double> starts = r.length <= 16 ? List.of()
                    : Arrays.stream(r, 16, r.length).mapToObj(ns -> ns / 1e6).toList();
            if (r.length < 16 || r[7] == 0 || r[15] == 0 || n < 10) {
                return new Timed(rate, Double.NaN, Double.NaN, starts);
            }
            // with one message per transaction, the commit marking k tenths is the one that made ceil(k * n / 10)
            long tenth = (n + 9L) / 10;
            long nineTenths = (9L * n + 9) / 10;
            return new Timed(rate, (nineTenths - tenth) * 1e9 / (r[15] - r[7]), tenth * 1e9 / (r[7] - r[0]), starts);
        }

        /** @return the last delivery thread's first delivery, ms after the drain's first (NaN: not read) */
        double lastStartMillis() {
            return startsMillis.isEmpty() ? Double.NaN : startsMillis.get(startsMillis.size() - 1);
        }

        /** @return "; the first tenth 2,345 msg/s, a tenth to nine tenths 3,012 msg/s", or "" when not measured */
        String tenthsText() {
            String text = Double.isNaN(steady) ? "" : "; the first tenth " + Report.rate(first)
                    + ", a tenth to nine tenths " + Report.rate(steady);
            return startsMillis.isEmpty() ? text : text + "; the threads' first deliveries at "
                    + startsMillis.stream().map(ms -> String.format(Locale.ROOT, "%.1f", ms))
                            .collect(java.util.stream.Collectors.joining(", ")) + " ms";
        }
    }

    private Drain ssbDrain(JavaArchive consumer, int messages) throws Exception {
        return ssbDrain(consumer, messages, () -> { });
    }

    private Drain ssbDrain(JavaArchive consumer, int messages, AfterRun afterRun) throws Exception {
        Timed timed = drainSsb(consumer, messages, messages, afterRun, null);
        return new Drain(timed, lastCpuReading, cpuMessages, lastCompilerNanos);
    }

    private Drain artemisDrain(JavaArchive consumer, int messages) throws Exception {
        Timed timed = drainArtemis(consumer, messages);
        return new Drain(timed, lastCpuReading, cpuMessages, lastCompilerNanos);
    }

    /** The plain JDBC loop ({@link JdbcCeiling}) drains {@code messages} with {@code threads} threads. */
    private Drain loopDrain(int threads, int messages) throws Exception {
        return loopDrain(JdbcCeiling.TAKE, threads, messages);
    }

    /** @param statement the ceiling's ({@link JdbcCeiling#TAKE}) or the readers' own RECEIVE ({@link ReaderReceive}) */
    private Drain loopDrain(String statement, int threads, int messages) throws Exception {
        int n = loadSsb(messages);
        settleBeforeDrain("the JDBC loop with " + threads + " thread(s)");
        CpuMeter.Reading before = cpuNow();
        lastWindowFrom = System.nanoTime();
        CpuMeter.Reading[] used = {null};
        long[] r = JdbcCeiling.drain(pg, statement, SsbLoader.QUEUE, threads, n, () -> {
            lastWindowTo = System.nanoTime();
            used[0] = since(before);
        });
        assertEquals(n, r[1], "the JDBC loop took every message");
        assertEquals(0, loader.depth(), "the JDBC loop drained the queue");
        return new Drain(r[1] * 1e9 / r[0], used[0], n);
    }

    /**
     * The plain JDBC loop's statement and threads inside WildFly ({@code ContainerLoop}: WildFly's transaction manager,
     * one EJB call per message, no ssb-jca) drain {@code messages} with {@code threads} threads; timed and counted
     * as the MDBs' drains are.
     */
    private Drain containerDrain(int threads, int messages) throws Exception {
        return containerDrain(JdbcCeiling.TAKE, threads, messages);
    }

    /** @param statement the ceiling's ({@link JdbcCeiling#TAKE}) or the readers' own RECEIVE ({@link ReaderReceive}) */
    private Drain containerDrain(String statement, int threads, int messages) throws Exception {
        int n = loadSsb(messages);
        control.arm(n);
        String options = JdbcCeiling.optionsFor(statement);
        String[] database = options == null ? new String[] {pg.url(), BenchPostgres.USER, BenchPostgres.PASSWORD}
                : new String[] {pg.url(), BenchPostgres.USER, BenchPostgres.PASSWORD, options};
        settleBeforeDrain("the in-WildFly loop with " + threads + " thread(s)");
        long[] gcBefore = control.gcTotals();
        control.startContainerLoop(database, statement, SsbLoader.QUEUE, threads, n);
        int[] taken = {-1};
        long[] r = awaitTimed(n, () -> taken[0] = control.joinContainerLoop());
        String what = "the in-WildFly loop with " + threads + " thread(s)";
        assertTrue(r[1] != 0, what + " did not finish: " + Arrays.toString(r));
        assertEquals(n, taken[0], what + " took every message");
        assertEquals(0, loader.depth(), what + " drained the queue");
        requireOneMessagePerTransaction(what, r);
        Timed timed = Timed.of(r, n);
        log("%s: %,d in %.2f s = %s%s%s (rolled back: %d)", what, n, (r[1] - r[0]) / 1e9,
                Report.rate(timed.rate()), timed.tenthsText(), collectionsSince(gcBefore), r[4]);
        return new Drain(timed, lastCpuReading, cpuMessages, lastCompilerNanos);
    }

    /** @return a round's first drains, then its second ones (ssb-jca's and the loop's run twice a round) */
    private static List<Drain> both(List<Drain> first, List<Drain> again) {
        List<Drain> all = new ArrayList<>(first);
        all.addAll(again);
        return all;
    }

    /** @return the median of the drains' rates */
    private static double median(List<Drain> drains) {
        return Rounds.median(drains.stream().mapToDouble(Drain::rate).toArray());
    }

    /** @return how fast the plain JDBC loop's drains went: wall clock and CPU per message */
    private static MachineSpeed machineSpeed(List<Drain> loop) {
        long client = 0;
        long postgres = 0;
        long messages = 0;
        for (Drain d : loop) {
            if (d.cpu() != null) {
                client += d.cpu().clientNanos();
                postgres += d.cpu().postgresNanos();
                messages += d.cpuMessages();
            }
        }
        return MachineSpeed.of(loop.stream().mapToDouble(Drain::rate).toArray(), client, postgres, messages);
    }

    /** @return the drains' CPU per message, their readings summed ("" when none was read) */
    private static String cpuOf(List<Drain> drains, boolean client) {
        CpuMeter.Reading sum = null;
        long messages = 0;
        for (Drain d : drains) {
            if (d.cpu() != null) {
                sum = sum == null ? d.cpu() : sum.plus(d.cpu());
                messages += d.cpuMessages();
            }
        }
        return sum == null ? "" : sum.perMessage(messages, client);
    }

    /**
     * @return WildFly's JIT compilation in the timed windows of the drains whose CPU was read, µs per message, or
     *         "n/a" when none was
     */
    private static String jitOf(List<Drain> drains) {
        List<Drain> read = drains.stream().filter(d -> d.cpu() != null).toList();
        long messages = read.stream().mapToLong(Drain::cpuMessages).sum();
        return messages == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f",
                read.stream().mapToLong(Drain::compilerNanos).sum() / 1e3 / messages);
    }

    /**
     * @return the median over the drains of their last delivery thread's first delivery, ms after the drain's first,
     *     and the largest, e.g. "12.3 (at most 40.1)"; "n/a" when not read
     */
    private static String lastStartOf(List<Drain> drains) {
        double[] ms = drains.stream().mapToDouble(Drain::lastStartMillis).filter(v -> !Double.isNaN(v)).toArray();
        return ms.length == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f (at most %.1f)", Rounds.median(ms),
                Arrays.stream(ms).max().getAsDouble());
    }

    /** @return "; median of 3 rounds: a / b / c msg/s" or "" for one round */
    private static String roundsNote(List<Drain> drains) {
        return drains.size() < 2 ? "" : String.format(Locale.ROOT, "; median of %d rounds: %s", drains.size(),
                drains.stream().map(d -> String.format(Locale.ROOT, "%,.0f", d.rate()))
                        .collect(java.util.stream.Collectors.joining(" / ")) + " msg/s");
    }

    /** @return "rounds: 1.02× / 0.97× / 1.10×" or "" for one round */
    private static String eachRound(double[] ratios) {
        return ratios.length < 2 ? "" : "rounds: " + Rounds.each(ratios);
    }

    /** @return the CPU used since {@code before}, or null when not read */
    private CpuMeter.Reading since(CpuMeter.Reading before) {
        return before == null ? null : cpu.read().minus(before);
    }

    /** Receives the {@code messages} the Artemis queue holds, with the consumer MDB, until it is empty. */
    private void emptyArtemis(int messages) throws Exception {
        JavaArchive consumer = BenchDeployments.artemisConsumer(4);
        control.arm(messages);
        server.deploy(consumer);
        try {
            control.await(RUN_TIMEOUT);
        } finally {
            server.undeploy(consumer);
        }
        assertEquals(0, awaitArtemisDepth(0), "the Artemis queue is empty");
    }

    /** The queue's message count lags behind commits a little: read it until it shows {@code expected} (30 s). */
    private long awaitArtemisDepth(long expected) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        long depth = server.artemisDepth();
        while (depth != expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
            depth = server.artemisDepth();
        }
        return depth;
    }

    /** @return "0.99× (0.95×–1.04×) / 0.968× (...) / ...": each count's spread, three decimals near the line */
    private static String spreads(List<Spread> byCount) {
        return byCount.stream().map(o -> o.text(Issue49.ADAPTER_LINE))
                .collect(java.util.stream.Collectors.joining(" / "));
    }

    /** The window in which the machine must be quiet before a drain starts, and the longest wait for one. */
    private static final long QUIET_WINDOW_MILLIS = 200;
    private static final long QUIET_MAX_MILLIS = 5_000;
    /** Quiet: the machine's cores (both, all processes) busy less than this share of a window. */
    private static final double QUIET_BUSY = 0.10;

    /**
     * Before a drain, once its queue is filled: the machine's cores must have been less than {@link #QUIET_BUSY} busy
     * through one window of {@link #QUIET_WINDOW_MILLIS} ms (waited for at most {@link #QUIET_MAX_MILLIS} ms), so that
     * what the load or the drain before left running (PostgreSQL's autovacuum, Artemis's journal, a compilation) does
     * not fall on whichever system the order put next. Says so when it waited more than one window or did not find the
     * machine quiet.
     *
     * @param what the drain, for the log
     */
    private void settleBeforeDrain(String what) throws InterruptedException {
        long start = System.nanoTime();
        long[] before = CpuMeter.machine();
        if (before[2] < 0) {
            return; // no /proc/stat
        }
        double busy;
        long waited;
        do {
            Thread.sleep(QUIET_WINDOW_MILLIS);
            long[] now = CpuMeter.machine();
            busy = (now[0] - before[0]) / (double) Math.max(1, now[2] - before[2]);
            before = now;
            waited = (System.nanoTime() - start) / 1_000_000;
        } while (busy >= QUIET_BUSY && waited < QUIET_MAX_MILLIS);
        if (busy >= QUIET_BUSY || waited >= 2 * QUIET_WINDOW_MILLIS) {
            log("%s: %s after %,d ms (the cores %.0f%% busy in its last %d ms)", what,
                    busy < QUIET_BUSY ? "the machine quiet" : "the machine still busy", waited, 100 * busy,
                    QUIET_WINDOW_MILLIS);
        }
    }

    /** @return "; WildFly collected its garbage 3 times, 41 ms" since {@code before} ({@code control.gcTotals()}) */
    private String collectionsSince(long[] before) {
        long[] now = control.gcTotals();
        return String.format(Locale.ROOT, "; WildFly collected its garbage %d times, %d ms", now[0] - before[0],
                now[1] - before[1]);
    }

    /** What ends a drain whatever happened in it (undeploys its consumer, waits for its threads). */
    @FunctionalInterface
    private interface DrainEnd {
        void run() throws Exception;
    }

    /**
     * Waits for the armed run of {@code expected} messages to end, its CPU read over the window {@link #cpuWindow}
     * gives ({@link #lastCpuReading}, {@link #cpuMessages}); {@code end} runs in any case.
     *
     * @return what {@code control.await} returned
     */
    private long[] awaitTimed(int expected, DrainEnd end) throws Exception {
        try {
            CpuWindow w = cpuWindow(expected);
            Map<Long, Long> compilers = cpu == null ? Map.of() : cpu.compilerTicks();
            long[] r = control.await(RUN_TIMEOUT);
            lastCpuReading = since(w.before);
            lastCompilerNanos = cpu == null ? 0 : cpu.compilerNanosSince(compilers);
            cpuMessages = expected - w.committed;
            return r;
        } finally {
            end.run();
        }
    }

    /** Where a drain's CPU measurement starts: a reading and the messages committed by then. */
    private record CpuWindow(CpuMeter.Reading before, long committed) {
    }

    /**
     * Waits until a tenth of the run has committed, then reads the CPU: so the consumer's deployment and the
     * readers' start are not counted in the cost per message.
     */
    private CpuWindow cpuWindow(int expected) throws InterruptedException {
        if (cpu == null) {
            return new CpuWindow(null, 0);
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        long[] p = control.progress();
        while (p[0] < expected / 10 && System.nanoTime() < deadline) {
            Thread.sleep(2);
            p = control.progress();
        }
        CpuMeter.Reading reading = cpu.read();
        long committed = control.progress()[0];
        if (taskPrefix != null && committed < expected) {
            readTasks(expected);
        }
        return committed >= expected ? new CpuWindow(null, 0) : new CpuWindow(reading, committed);
    }

    /**
     * Reads WildFly's threads named {@link #taskPrefix} now and again once nine tenths of the drain have committed
     * (looking every 50 ms, so as not to load WildFly's management threads), into {@link #lastTaskTimes}: both
     * readings fall while the drain runs, when every one of its threads is alive.
     */
    private void readTasks(int expected) throws InterruptedException {
        TaskTimes before = TaskTimes.read(cpu.wildfly(), taskPrefix);
        long[] p = control.progress();
        long from = p[0];
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (p[0] < expected * 9L / 10 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            p = control.progress();
        }
        TaskTimes after = TaskTimes.read(cpu.wildfly(), taskPrefix);
        lastTaskTimes = after.since(before, control.progress()[0] - from);
    }

    private CpuMeter.Reading cpuNow() {
        return cpu == null ? null : cpu.read();
    }

    // ---- profile and figures

    /** Reads {@code pg_stat_statements} whole: the profiles that follow count what ran after this. */
    private void markStatements() throws SQLException {
        statementsBefore = StatementCounts.read(pg);
    }

    /** @return what ran since {@link #markStatements}, the benchmark's own reads and the schema's upkeep left out */
    private List<StatementCounts.Totals> statementsSinceMark() throws SQLException {
        return StatementCounts.read(pg).since(statementsBefore).stream()
                .filter(t -> !t.query().contains("pg_stat_statements") && !t.query().startsWith("TRUNCATE")
                        && !t.query().startsWith("VACUUM") && !t.query().startsWith("ANALYZE")
                        && !t.query().startsWith("CREATE"))
                .toList();
    }

    /**
     * @return the calls, the mean execution time (ms), the plannings and their mean time (ms) of the most called
     *         statement since {@link #markStatements}
     */
    private double[] topStatement() throws SQLException {
        return statementsSinceMark().stream().filter(t -> t.query().startsWith("WITH")).sorted(MOST_CALLED).findFirst()
                .map(t -> new double[] {t.calls(), t.meanExecMillis(), t.plans(), t.meanPlanMillis()})
                .orElse(new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
    }

    /** The statement profile of a drain: the loader's statements left out, the most called first. */
    private void profileStatements(int messages) throws SQLException {
        profileStatements(messages, report.profile, true, MOST_CALLED, 15);
    }

    /**
     * Adds the statements run since {@link #markStatements} to a profile's rows.
     *
     * @param loaderLeftOut whether the loader's inserts of conversations and messages are left out
     * @param order which come first
     * @param limit how many rows at most
     */
    private void profileStatements(int messages, List<String> into, boolean loaderLeftOut,
            Comparator<StatementCounts.Totals> order, int limit) throws SQLException {
        statementsSinceMark().stream()
                .filter(t -> !loaderLeftOut || !(t.query().startsWith("INSERT INTO ssb.conversation_")
                        || t.query().startsWith("INSERT INTO ssb.message ")))
                .sorted(order).limit(limit).forEach(t -> {
                    String q = t.query().replaceAll("\\s+", " ");
                    if (q.length() > 160) {
                        q = q.substring(0, 157) + "...";
                    }
                    into.add(String.format(Locale.ROOT, "| %.3f | %.3f | %.3f | %.3f | `%s` |",
                            t.calls() / (double) messages, t.meanExecMillis(),
                            t.plans() / (double) Math.max(1, t.calls()), t.meanPlanMillis(), q.replace("|", "\\|")));
                });
    }

    /** @return p50, p99 and max in ms over every round's messages, after checking that each was received */
    private double[] percentiles(String system, List<long[]> rounds) {
        long[] nanos = rounds.stream().flatMapToLong(Arrays::stream).toArray();
        long missing = Arrays.stream(nanos).filter(n -> n == Long.MIN_VALUE).count();
        assertEquals(0, missing, system + ": messages never received");
        long early = Arrays.stream(nanos).filter(n -> n < 0).count();
        if (early > 0) {
            report.notes.add(system + ": " + early + " of " + nanos.length + " messages reached onMessage before the"
                    + " sender's commit call had returned; counted as 0 ms.");
        }
        return percentilesOf(nanos);
    }

    /** @return p50, p99 and max in ms (a message before its commit returned counts 0) */
    private static double[] percentilesOf(long[] nanos) {
        long[] sorted = Arrays.stream(nanos).map(n -> Math.max(0, n)).sorted().toArray();
        return new double[] {
            sorted[(int) Math.ceil(0.50 * sorted.length) - 1] / 1e6,
            sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1e6,
            sorted[sorted.length - 1] / 1e6
        };
    }

    private static String triple(double[] v) {
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f ms", v[0], v[1], v[2]);
    }

    private void machine() throws Exception {
        Map<String, String> pgSettings = pg.settings();
        assertEquals("on", pgSettings.get("fsync"), "the benchmark's PostgreSQL must fsync");
        assertEquals("on", pgSettings.get("synchronous_commit"),
                "the benchmark's PostgreSQL must commit synchronously");
        report.machine.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        report.machine.put("CPU", cpuModel());
        report.machine.put("memory", memory());
        report.machine.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + "); WildFly runs on the same JDK");
        report.machine.put("WildFly", server.productVersion() + ", standalone-full.xml, -Xmx1g");
        report.machine.put("PostgreSQL", pgSettings.get("server_version") + " (embedded, zonky), fsync="
                + pgSettings.get("fsync") + ", synchronous_commit=" + pgSettings.get("synchronous_commit")
                + ", full_page_writes=" + pgSettings.get("full_page_writes") + ", wal_sync_method="
                + pgSettings.get("wal_sync_method") + ", max_prepared_transactions="
                + pgSettings.get("max_prepared_transactions") + ", shared_buffers=" + pgSettings.get("shared_buffers"));
        report.machine.put("Artemis journal", BenchServer.journal() + " (from the server log: 'Using ... Journal')");
        report.machine.put("load average at start", load.startText());
        if (QUICK) {
            report.notes.add("QUICK RUN (-Dbench.quick=true): small counts, for developing the benchmark only.");
        }
    }

    private void finish() throws IOException {
        String cores = MachineSpeed.coresText(machineAtStart, CpuMeter.machine());
        if (cores != null) {
            report.speed(cores);
        }
        List<String> paging = BenchServer.pagingLines();
        report.machine.put("Artemis paging", String.format(Locale.ROOT, "max-size-bytes %d MiB on the address setting"
                + " '#' (WildFly's default: 10 MiB); %s", ARTEMIS_MEMORY_BYTES >> 20, paging.isEmpty()
                        ? "no address paged (no AMQ222038 line in the server log)"
                        : paging.size() + " AMQ222038 lines in the server log, the first: " + paging.get(0)));
        report.machine.put("load average during the run", load.summary());
        report.machine.put("run finished", java.time.Instant.now().toString());
        System.out.println();
        System.out.println(report.table());
        String target = System.getProperty("ssb.bench.report", "");
        if (!target.isBlank()) {
            Path file = Path.of(target).toAbsolutePath().normalize();
            Files.createDirectories(file.getParent());
            Files.writeString(file, report.markdown(COMMAND) + method(), StandardCharsets.UTF_8);
            System.out.println("[benchmark] written " + file);
        }
    }

    private static String method() throws IOException {
        return resource("/method.md") + resource("/analysis.md");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = BenchmarkIT.class.getResourceAsStream(name)) {
            return in == null ? "" : "\n" + new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String cpuModel() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "unknown";
    }

    private static String memory() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal")) {
                long kb = Long.parseLong(line.replaceAll("\\D", ""));
                return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
            }
        }
        return "unknown";
    }

    private static void log(String format, Object... args) {
        System.out.println("[benchmark] " + String.format(Locale.ROOT, format, args));
    }
}
