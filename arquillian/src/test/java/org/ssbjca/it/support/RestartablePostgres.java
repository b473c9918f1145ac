package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * An embedded PostgreSQL 17 of one test class that the test can stop ({@code pg_ctl stop -m fast}: sessions are
 * ended, open transactions rolled back, prepared ones kept) and start again on the same port and data directory, so
 * that WildFly sees the same database come back. {@code max_prepared_transactions=20} for two-phase XA. The data
 * directory is {@code target/postgres-<name>}, made afresh by {@link #create}. Client side only.
 * <p>
 * The embedded build has no JIT. With {@value #BIN_ENV} set, an installed PostgreSQL runs instead, through its own
 * {@code initdb} and {@code pg_ctl} (their output in {@code target/postgres-<name>.out}), with its default settings
 * but for the port, the addresses, {@code max_prepared_transactions} and trust authentication: Debian's, for
 * instance, has JIT on.
 */
public final class RestartablePostgres implements AutoCloseable {

    /** The embedded server's superuser; local connections are trusted. */
    public static final String USER = "postgres";
    /** Sent, not checked. */
    public static final String PASSWORD = "postgres";
    /** Environment: the {@code bin} directory of an installed PostgreSQL, e.g. {@code /usr/lib/postgresql/15/bin}. */
    public static final String BIN_ENV = "SSB_TEST_POSTGRES_BIN";
    /** Environment: with {@value #BIN_ENV}, the system user that runs it through {@code runuser} (never root). */
    public static final String OS_USER_ENV = "SSB_TEST_POSTGRES_OS_USER";

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres server;
    private final String installedBin = System.getenv(BIN_ENV);
    private boolean installedRunning;

    private RestartablePostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /**
     * @param name names the data directory
     * @return a new, started server on a free port
     */
    public static RestartablePostgres create(String name) {
        Path dir = Path.of("target", "postgres-" + name).toAbsolutePath();
        deleteTree(dir);
        deleteTree(dir.resolveSibling(dir.getFileName() + ".out"));
        RestartablePostgres pg = new RestartablePostgres(dir, freePort());
        pg.start();
        return pg;
    }

    /** Starts the server (again), on the same port and data directory; returns once it accepts connections. */
    public synchronized void start() {
        if (server != null || installedRunning) {
            throw new IllegalStateException("already running");
        }
        if (installedBin != null) {
            startInstalled();
            return;
        }
        try {
            server = EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_prepared_transactions", "64")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not start on port " + port + " with " + dataDir, e);
        }
    }

    /** Stops the server and waits until it is down (fast shutdown). */
    public synchronized void stop() {
        if (installedRunning) {
            installed("pg_ctl", "-D", dataDir.toString(), "-m", "fast", "-w", "stop");
            installedRunning = false;
            return;
        }
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not stop", e);
        } finally {
            server = null;
        }
    }

    /**
     * @param database a database name
     * @return its JDBC URL on 127.0.0.1 (WildFly connects to it too)
     */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** @return the URL of the default database, {@code postgres} */
    public String jdbcUrl() {
        return jdbcUrl("postgres");
    }

    /** @param database a database to create, if it does not exist */
    public void createDatabase(String database) {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            if (!"42P04".equals(e.getSQLState())) {
                throw new IllegalStateException("CREATE DATABASE " + database + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void startInstalled() {
        if (!Files.exists(dataDir.resolve("PG_VERSION"))) {
            try {
                Files.createDirectories(dataDir);
                String osUser = System.getenv(OS_USER_ENV);
                if (osUser != null) {
                    Files.setOwner(dataDir, dataDir.getFileSystem().getUserPrincipalLookupService()
                            .lookupPrincipalByName(osUser));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot prepare " + dataDir, e);
            }
            installed("initdb", "-D", dataDir.toString(), "-U", USER, "-A", "trust");
        }
        installed("pg_ctl", "-D", dataDir.toString(), "-w", "-l", dataDir.resolve("server.log").toString(), "-o",
                "-p " + port + " -c listen_addresses=127.0.0.1 -c max_prepared_transactions=64"
                        + " -c unix_socket_directories=" + dataDir, "start");
        installedRunning = true;
    }

    /** Runs a program of the installed PostgreSQL, as {@value #OS_USER_ENV} if set, and waits for it to succeed. */
    private void installed(String program, String... args) {
        java.util.List<String> command = new java.util.ArrayList<>();
        String osUser = System.getenv(OS_USER_ENV);
        if (osUser != null) {
            command.addAll(java.util.List.of("runuser", "-u", osUser, "--"));
        }
        command.add(Path.of(installedBin, program).toString());
        command.addAll(java.util.List.of(args));
        Path out = dataDir.resolveSibling(dataDir.getFileName() + ".out");
        try {
            int exit = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " ended with " + exit + ": see " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", command) + " did not start", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
