package org.ssbjca.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time used by WildFly's JVM and by PostgreSQL (the postmaster, its live children and those it reaped), from
 * /proc: to tell where a message's cost goes on a machine whose 2 cores both systems share. With it, PostgreSQL's
 * kernel share and its WAL flushes ({@code pg_stat_wal}): a commit per message costs an fdatasync unless several
 * commits share one (group commit), and that kernel time counts in PostgreSQL's CPU.
 */
final class CpuMeter {

    private static final double NANOS_PER_TICK = 1e9 / 100; // USER_HZ is 100 on Linux

    private final BenchPostgres pg;
    private final long wildfly;
    private final long postmaster;
    private Connection statsConnection;

    /**
     * A reading: CPU nanoseconds so far of each (PostgreSQL's also in the kernel alone), PostgreSQL's WAL flushes and
     * bytes so far (-1 when pg_stat_wal could not be read), and the machine's time so far on all its cores: busy
     * (user, system, interrupts), stolen by the hypervisor, and in all (-1s when /proc/stat could not be read).
     */
    record Reading(long wildflyNanos, long postgresNanos, long clientNanos, long postgresSystemNanos, long walSyncs,
                   long walBytes, long[] machine) {
        Reading minus(Reading earlier) {
            return combine(earlier, -1);
        }

        /** @return this reading and another, summed (two drains' readings) */
        Reading plus(Reading other) {
            return combine(other, 1);
        }

        private Reading combine(Reading o, int sign) {
            boolean wal = walSyncs >= 0 && o.walSyncs >= 0;
            boolean read = machine[2] >= 0 && o.machine[2] >= 0;
            return new Reading(wildflyNanos + sign * o.wildflyNanos, postgresNanos + sign * o.postgresNanos,
                    clientNanos + sign * o.clientNanos, postgresSystemNanos + sign * o.postgresSystemNanos,
                    wal ? walSyncs + sign * o.walSyncs : -1, wal ? walBytes + sign * o.walBytes : -1,
                    read ? new long[] {machine[0] + sign * o.machine[0], machine[1] + sign * o.machine[1],
                        machine[2] + sign * o.machine[2]} : new long[] {-1, -1, -1});
        }

        /** @return "CPU per message: ..." for {@code messages} messages */
        String perMessage(long messages, boolean withClient) {
            return String.format(java.util.Locale.ROOT,
                    "CPU per message: %s%.0f µs PostgreSQL (%.0f%% in the kernel)%s%s",
                    withClient ? String.format(java.util.Locale.ROOT, "%.0f µs JDBC loop (its JVM), ",
                            clientNanos / 1e3 / messages)
                            : String.format(java.util.Locale.ROOT, "%.0f µs WildFly, ", wildflyNanos / 1e3 / messages),
                    postgresNanos / 1e3 / messages, 100.0 * postgresSystemNanos / Math.max(1, postgresNanos),
                    walSyncs < 0 ? "" : String.format(java.util.Locale.ROOT, "; WAL flushes per message %.2f, WAL"
                            + " bytes per message %,.0f", walSyncs / (double) messages, walBytes / (double) messages),
                    machine[2] <= 0 ? "" : String.format(java.util.Locale.ROOT, "; the machine's cores busy %.0f%%,"
                            + " stolen %.0f%%", 100.0 * machine[0] / machine[2], 100.0 * machine[1] / machine[2]));
        }
    }

    private CpuMeter(BenchPostgres pg, long wildfly, long postmaster) {
        this.pg = pg;
        this.wildfly = wildfly;
        this.postmaster = postmaster;
    }

    /** @return WildFly's JVM */
    long wildfly() {
        return wildfly;
    }

    /** @return a meter, or empty when the processes cannot be found (not Linux, other user) */
    static Optional<CpuMeter> find(BenchPostgres pg) {
        try {
            long wildfly = wildflyPid();
            long postmaster;
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                // the backend's parent, read while the backend (this connection) still exists
                String stat = Files.readString(Path.of("/proc/" + rs.getLong(1) + "/stat"));
                postmaster = Long.parseLong(fields(stat)[1]);
            }
            if (wildfly > 0 && postmaster > 0) {
                return Optional.of(new CpuMeter(pg, wildfly, postmaster));
            }
            System.out.println("[benchmark] CPU not measured: WildFly pid " + wildfly + ", postmaster pid "
                    + postmaster);
            return Optional.empty();
        } catch (SQLException | IOException | RuntimeException e) {
            System.out.println("[benchmark] CPU not measured: " + e);
            return Optional.empty();
        }
    }

    /**
     * The JVM whose command line names the benchmark's server base directory, read from /proc/PID/cmdline
     * (ProcessHandle.Info gives no command line when it is long, as WildFly's is from a deep directory).
     */
    private static long wildflyPid() throws IOException {
        String base = "-Djboss.server.base.dir=" + System.getProperty("ssb.bench.baseDir");
        try (java.util.stream.Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")),
                            java.nio.charset.StandardCharsets.UTF_8);
                    if (cmdline.contains(base)) {
                        return Long.parseLong(name);
                    }
                } catch (IOException gone) {
                    // the process ended meanwhile
                }
            }
        }
        return -1;
    }

    Reading read() {
        long[] wal = wal();
        long[] pg = treeTicks(() -> ticks(postmaster, true), () -> {
            long[] sum = new long[2];
            for (ProcessHandle child : ProcessHandle.of(postmaster).map(p -> p.children().toList())
                    .orElse(java.util.List.of())) {
                long[] t = ticks(child.pid(), false);
                sum[0] += t[0];
                sum[1] += t[1];
            }
            return sum;
        });
        return new Reading((long) (ticks(wildfly, false)[0] * NANOS_PER_TICK), (long) (pg[0] * NANOS_PER_TICK),
                (long) (ticks(ProcessHandle.current().pid(), false)[0] * NANOS_PER_TICK),
                (long) (pg[1] * NANOS_PER_TICK), wal[0], wal[1], machine());
    }

    /**
     * @return the machine's ticks so far on all cores ({@code /proc/stat}'s first line): {busy (user, nice, system,
     *     irq, softirq; guests are in user), stolen, all}, or -1s
     */
    static long[] machine() {
        try {
            return machine(Files.readAllLines(Path.of("/proc/stat")).get(0));
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1, -1};
        }
    }

    /** @param cpuLine "cpu user nice system idle iowait irq softirq steal guest guest_nice" */
    static long[] machine(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        long[] t = new long[8];
        for (int k = 0; k < 8; k++) {
            t[k] = Long.parseLong(f[k + 1]);
        }
        long busy = t[0] + t[1] + t[2] + t[5] + t[6];
        return new long[] {busy, t[7], busy + t[3] + t[4] + t[7]};
    }

    /** How often {@link #treeTicks} reads a process tree again at most before it takes what it read. */
    static final int TREE_READS = 10;

    /**
     * A process tree's CPU ticks: the parent's own with its reaped children's, plus each live child's. A child that
     * ends while the tree is read moves its ticks from the second part to the first when its parent reaps it: if that
     * falls between the parent's read and the children's, the child counts in neither (nor does what it used before
     * the window began, which the earlier reading did count: the difference came out too small, by whole backends,
     * when a drain's connections closed as its window ended). So the parent is read before and after the children and
     * the tree is read again until the two agree.
     *
     * @param parent the parent's {all, kernel only} ticks, its reaped children's included
     * @param children the live children's {all, kernel only} ticks, summed
     * @return {all, kernel only} ticks of the tree
     */
    static long[] treeTicks(java.util.function.Supplier<long[]> parent, java.util.function.Supplier<long[]> children) {
        long[] before = parent.get();
        for (int read = 1; ; read++) {
            long[] live = children.get();
            long[] after = parent.get();
            if (java.util.Arrays.equals(before, after) || read == TREE_READS) {
                return new long[] {after[0] + live[0], after[1] + live[1]};
            }
            before = after;
        }
    }

    /**
     * @return PostgreSQL's WAL flushes (fsync or fdatasync calls) and WAL bytes so far, or -1s
     */
    private long[] wal() {
        try (Statement s = statsConnection().createStatement();
             ResultSet rs = s.executeQuery("SELECT wal_sync, wal_bytes FROM pg_stat_wal")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        } catch (SQLException e) {
            return new long[] {-1, -1};
        }
    }

    /**
     * @return the one connection the readings of PostgreSQL's statistics views use, kept open (a backend started per
     *     reading would add its start to the CPU measured)
     */
    private Connection statsConnection() throws SQLException {
        if (statsConnection == null || statsConnection.isClosed()) {
            statsConnection = pg.connect();
        }
        return statsConnection;
    }

    /**
     * @return PostgreSQL's maintenance so far: {autovacuum runs, autoanalyze runs} summed over schema ssb's tables,
     *     and checkpoints (timed and requested); -1s when they cannot be read
     */
    long[] maintenance() {
        try {
            long[] out = new long[3];
            Connection c = statsConnection();
            try (Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT COALESCE(SUM(autovacuum_count), 0),"
                        + " COALESCE(SUM(autoanalyze_count), 0) FROM pg_stat_all_tables WHERE schemaname = 'ssb'")) {
                    rs.next();
                    out[0] = rs.getLong(1);
                    out[1] = rs.getLong(2);
                }
                // PostgreSQL 17 moved the checkpoints' counts from pg_stat_bgwriter to pg_stat_checkpointer
                boolean v17 = c.getMetaData().getDatabaseMajorVersion() >= 17;
                try (ResultSet rs = s.executeQuery(v17 ? "SELECT num_timed + num_requested FROM pg_stat_checkpointer"
                        : "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter")) {
                    rs.next();
                    out[2] = rs.getLong(1);
                }
            }
            return out;
        } catch (SQLException e) {
            return new long[] {-1, -1, -1};
        }
    }

    /**
     * @return CPU ticks so far of each of WildFly's JIT compiler threads, by thread id (HotSpot starts and stops them
     *     as needed, so a thread gone by the next reading is left out of {@link #compilerNanosSince})
     */
    Map<Long, Long> compilerTicks() {
        Map<Long, Long> out = new HashMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/" + wildfly + "/task"))) {
            tasks.forEach(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = comm(stat);
                    if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                        String[] f = fields(stat);
                        out.put(Long.parseLong(t.getFileName().toString()), Long.parseLong(f[11])
                                + Long.parseLong(f[12]));
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException e) {
            // no /proc: nothing to tell
        }
        return out;
    }

    /**
     * @param before {@link #compilerTicks()} at the start of a window
     * @return CPU nanoseconds WildFly's JIT compiler threads used since (those still running)
     */
    long compilerNanosSince(Map<Long, Long> before) {
        long ticks = 0;
        for (Map.Entry<Long, Long> e : compilerTicks().entrySet()) {
            ticks += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return (long) (ticks * NANOS_PER_TICK);
    }

    /**
     * @param stat a {@code /proc/PID/stat} or {@code /proc/PID/task/TID/stat} line
     * @return its fields after "pid (comm) ": [0] = state (field 3); [1] = the parent pid; utime = field 14 -> [11];
     *     stime [12]; cutime [13]; cstime [14]
     */
    static String[] fields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** @return a {@code /proc/.../stat} line's {@code comm}: the name between its brackets */
    static String comm(String stat) {
        return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    }

    /**
     * @return {utime + stime, stime} in clock ticks from one read of the process's stat (+ cutime + cstime: its
     *     children already reaped), {0, 0} when it cannot be read
     */
    private static long[] ticks(long pid, boolean withReapedChildren) {
        try {
            String[] f = fields(Files.readString(Path.of("/proc/" + pid + "/stat")));
            long user = Long.parseLong(f[11]);
            long system = Long.parseLong(f[12]);
            if (withReapedChildren) {
                user += Long.parseLong(f[13]);
                system += Long.parseLong(f[14]);
            }
            return new long[] {user + system, system};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }
}
