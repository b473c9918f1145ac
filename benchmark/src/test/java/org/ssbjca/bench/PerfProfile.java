package org.ssbjca.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Where PostgreSQL's CPU goes, by phase of its work: Linux {@code perf} samples every process on the machine with its
 * call stack (DWARF unwinding, 999 Hz) while the benchmark drains; the samples of the {@code postgres} processes are
 * then sorted into phases by the PostgreSQL functions on their stacks (setting up the statement's plan, running it,
 * committing, flushing the WAL, talking to the client...). Timestamps are CLOCK_MONOTONIC, as {@link System#nanoTime},
 * so a window of a drain can be cut out of the recording.
 * <p>
 * A stack that could not be unwound up to one of those functions (deep executor stacks overflow the 8 KB of stack
 * perf copies) is placed by the executor's and access methods' functions it shows ({@code ExecInit*}: the set-up;
 * other {@code Exec*}, {@code _bt_*}, {@code heap_*}, {@code index_*}: the run), else counted as "other"; the total is
 * every sample of PostgreSQL's processes in the window, to compare with the CPU time {@link CpuMeter} reads from
 * /proc.
 */
final class PerfProfile implements AutoCloseable {

    static final int HZ = 999;

    private static final String EXECUTOR_START = "executor start: the plan's set-up (every node, every expression)";
    private static final String EXECUTOR_RUN = "executor run: the statement's work";

    /** Phases in the order a sample is tested: the first whose functions appear on its stack takes it. */
    static final Map<String, Set<String>> PHASES = new LinkedHashMap<>();

    static {
        PHASES.put("background processes (WAL writer, checkpointer, background writer, autovacuum)", Set.of(
                "WalWriterMain", "CheckpointerMain", "BackgroundWriterMain", "AutoVacWorkerMain",
                "AutoVacLauncherMain"));
        PHASES.put("commit: WAL flush (write and fdatasync)", Set.of("XLogFlush"));
        PHASES.put("commit: the rest", Set.of("CommitTransaction", "CommitTransactionCommand"));
        PHASES.put(EXECUTOR_START, Set.of(
                "standard_ExecutorStart", "pgss_ExecutorStart", "InitPlan"));
        PHASES.put("executor end", Set.of("standard_ExecutorEnd", "pgss_ExecutorEnd"));
        PHASES.put(EXECUTOR_RUN, Set.of("standard_ExecutorRun", "pgss_ExecutorRun",
                "standard_ExecutorFinish", "pgss_ExecutorFinish"));
        PHASES.put("cached plan: validity check, locks on every table it names", Set.of("GetCachedPlan",
                "RevalidateCachedQuery", "AcquireExecutorLocks", "AcquirePlannerLocks"));
        PHASES.put("bind, portal, other protocol work", Set.of("exec_bind_message", "exec_parse_message",
                "exec_execute_message", "PortalStart", "PortalDrop", "PortalRun"));
        PHASES.put("BEGIN", Set.of("StartTransaction", "StartTransactionCommand"));
        PHASES.put("sending to the client", Set.of("socket_flush", "internal_flush", "internal_flush_buffer",
                "secure_write", "ReadyForQuery"));
        PHASES.put("waiting for and reading the client", Set.of("secure_read", "pq_recvbuf", "pq_getbyte",
                "WaitEventSetWait", "ReadCommand"));
        PHASES.put("statistics and activity reporting", Set.of("pgstat_report_activity", "pgstat_report_stat",
                "pgss_store"));
    }

    static final String OTHER = "other (a stack not unwound up to one of the above, or the kernel's scheduling)";

    private final Process perf;
    private final Path data;

    private PerfProfile(Process perf, Path data) {
        this.perf = perf;
        this.data = data;
    }

    /**
     * Starts recording the whole machine.
     *
     * @param data where perf writes (large: about 16 MB per second)
     * @return the recording, or empty with the reason printed (no perf, or not allowed to record every CPU)
     */
    static Optional<PerfProfile> start(Path data) {
        try {
            Process p = new ProcessBuilder("perf", "record", "-a", "-F", Integer.toString(HZ), "--call-graph",
                    "dwarf,8192", "-k", "CLOCK_MONOTONIC", "-q", "-o", data.toString())
                    .redirectErrorStream(true).redirectOutput(data.resolveSibling(data.getFileName() + ".log").toFile())
                    .start();
            // perf writes its file's header once it records; give up if it does not within 10 s
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (p.isAlive() && !(Files.exists(data) && Files.size(data) > 0) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            if (!p.isAlive() || !Files.exists(data)) {
                System.out.println("[benchmark] perf profile not recorded: perf exited with " + (p.isAlive() ? "?"
                        : p.exitValue()) + " (" + Files.readString(data.resolveSibling(data.getFileName() + ".log"))
                        .strip() + ")");
                p.destroyForcibly();
                return Optional.empty();
            }
            return Optional.of(new PerfProfile(p, data));
        } catch (IOException e) {
            System.out.println("[benchmark] perf profile not recorded: " + e.getMessage()
                    + " (Debian: apt-get install linux-perf)");
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Stops recording (SIGINT, so that perf writes its file out). */
    void stop() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-INT", Long.toString(perf.pid())).start().waitFor();
        if (!perf.waitFor(120, TimeUnit.SECONDS)) {
            perf.destroyForcibly();
            throw new IOException("perf did not stop");
        }
    }

    /**
     * @param fromNanos start of the window, {@link System#nanoTime()}
     * @param toNanos its end
     * @return PostgreSQL's samples in that window by phase ({@link #PHASES}, then {@link #OTHER}), in µs of CPU
     */
    Map<String, Double> postgresMicros(long fromNanos, long toNanos) throws IOException, InterruptedException {
        Map<String, Long> samples = new LinkedHashMap<>();
        PHASES.keySet().forEach(k -> samples.put(k, 0L));
        samples.put(OTHER, 0L);
        Process script = new ProcessBuilder("perf", "script", "-i", data.toString(), "--comm", "postgres", "-F",
                "comm,time,ip,sym", "--time", String.format(java.util.Locale.ROOT, "%.6f,%.6f", fromNanos / 1e9,
                        toNanos / 1e9))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(script.getInputStream(),
                StandardCharsets.UTF_8))) {
            List<String> stack = new ArrayList<>();
            boolean inSample = false;
            for (String line = r.readLine(); ; line = r.readLine()) {
                if (line == null || line.isBlank()) {
                    if (inSample) {
                        samples.merge(phaseOf(stack), 1L, Long::sum);
                    }
                    stack.clear();
                    inSample = false;
                    if (line == null) {
                        break;
                    }
                } else if (!Character.isWhitespace(line.charAt(0))) {
                    inSample = true;
                } else {
                    String[] parts = line.strip().split("\\s+", 2);
                    if (parts.length == 2) {
                        String symbol = parts[1];
                        int offset = symbol.indexOf("+0x");
                        stack.add(offset > 0 ? symbol.substring(0, offset) : symbol);
                    }
                }
            }
        }
        script.waitFor();
        Map<String, Double> micros = new LinkedHashMap<>();
        samples.forEach((k, v) -> micros.put(k, v * 1e6 / HZ));
        return micros;
    }

    private static String phaseOf(List<String> stack) {
        for (Map.Entry<String, Set<String>> p : PHASES.entrySet()) {
            for (String frame : stack) {
                if (p.getValue().contains(frame)) {
                    return p.getKey();
                }
            }
        }
        // a stack cut short inside the executor: its own functions say which part
        for (String frame : stack) {
            if (frame.startsWith("ExecInit")) {
                return EXECUTOR_START;
            }
        }
        for (String frame : stack) {
            if (frame.startsWith("Exec") || frame.startsWith("_bt_") || frame.startsWith("heap_")
                    || frame.startsWith("index_") || frame.equals("CteScanNext") || frame.equals("TidNext")
                    || frame.equals("IndexNext")) {
                return EXECUTOR_RUN;
            }
        }
        return OTHER;
    }

    /** Deletes the recording (hundreds of MB). */
    @Override
    public void close() throws IOException {
        perf.destroyForcibly();
        Files.deleteIfExists(data);
    }
}
