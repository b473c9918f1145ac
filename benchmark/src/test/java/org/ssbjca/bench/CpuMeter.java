package org.ssbjca.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * CPU time used by WildFly's JVM and by PostgreSQL (the postmaster, its live children and those it reaped), from
 * /proc: to tell where a message's cost goes on a machine whose 2 cores both systems share.
 */
final class CpuMeter {

    private static final double NANOS_PER_TICK = 1e9 / 100; // USER_HZ is 100 on Linux

    private final long wildfly;
    private final long postmaster;

    /** A reading: CPU nanoseconds so far of each. */
    record Reading(long wildflyNanos, long postgresNanos, long clientNanos) {
        Reading minus(Reading earlier) {
            return new Reading(wildflyNanos - earlier.wildflyNanos, postgresNanos - earlier.postgresNanos,
                    clientNanos - earlier.clientNanos);
        }

        /** @return "CPU per message: ..." for {@code messages} messages */
        String perMessage(long messages, boolean withClient) {
            return String.format(java.util.Locale.ROOT, "CPU per message: %s%.0f µs PostgreSQL",
                    withClient ? String.format(java.util.Locale.ROOT, "%.0f µs JDBC loop (its JVM), ",
                            clientNanos / 1e3 / messages)
                            : String.format(java.util.Locale.ROOT, "%.0f µs WildFly, ", wildflyNanos / 1e3 / messages),
                    postgresNanos / 1e3 / messages);
        }
    }

    private CpuMeter(long wildfly, long postmaster) {
        this.wildfly = wildfly;
        this.postmaster = postmaster;
    }

    /** @return a meter, or empty when the processes cannot be found (not Linux, other user) */
    static Optional<CpuMeter> find(BenchPostgres pg) {
        try {
            String base = "-Djboss.server.base.dir=" + System.getProperty("ssb.bench.baseDir");
            long wildfly = ProcessHandle.allProcesses()
                    .filter(p -> p.info().commandLine().map(c -> c.contains(base)).orElse(false))
                    .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
            long backend;
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                backend = rs.getLong(1);
            }
            long postmaster = ProcessHandle.of(backend).flatMap(ProcessHandle::parent).map(ProcessHandle::pid)
                    .orElse(-1L);
            return wildfly > 0 && postmaster > 0 ? Optional.of(new CpuMeter(wildfly, postmaster)) : Optional.empty();
        } catch (SQLException | RuntimeException e) {
            return Optional.empty();
        }
    }

    Reading read() {
        long pgTicks = ticks(postmaster, true);
        for (ProcessHandle child : ProcessHandle.of(postmaster).map(p -> p.children().toList())
                .orElse(java.util.List.of())) {
            pgTicks += ticks(child.pid(), false);
        }
        return new Reading((long) (ticks(wildfly, false) * NANOS_PER_TICK), (long) (pgTicks * NANOS_PER_TICK),
                (long) (ticks(ProcessHandle.current().pid(), false) * NANOS_PER_TICK));
    }

    /** utime + stime (+ cutime + cstime: children already reaped), in clock ticks. */
    private static long ticks(long pid, boolean withReapedChildren) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after "pid (comm) ": f[0] = state (field 3); utime = field 14 -> f[11]; stime f[12]; cutime f[13]; cstime f[14]
            long t = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            if (withReapedChildren) {
                t += Long.parseLong(f[13]) + Long.parseLong(f[14]);
            }
            return t;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
