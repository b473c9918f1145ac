package org.ssbjca.adapter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.FakeBootstrapContext;

/**
 * Stopping the resource adapter releases everything it registered, so that WildFly can collect the RAR's class loader
 * when it is undeployed. Each cycle loads the adapter and its bundled JDBC drivers in a class loader of their own, as
 * WildFly does for {@code ssb-jca.rar}, starts it on PostgreSQL and H2 (schema, connections, the NOTIFY listener,
 * MBeans), stops it, and then that class loader must be collected. Before, every cycle left its loader alive: the
 * PostgreSQL and H2 drivers it had loaded stayed registered with {@link DriverManager}, which holds them
 * (and their loader) for the life of the JVM: after three cycles, none of the three loaders was collected within a
 * minute of repeated full collections.
 * <p>
 * The SQL Server driver is initialised as WildFly does with every driver a deployment carries. Deregistered, it still
 * kept its loader reachable until the adapter also dropped the loader's resource bundles from the JVM's cache
 * (mssql-jdbc's messages, held there by soft references that a full collection does not clear): without
 * {@code ResourceBundle.clearCache}, this test failed again. Likewise for the JDK's bean introspection cache
 * ({@link java.beans.Introspector}), which keeps what it learnt of a class by soft references: once the container had
 * introspected the activation spec, every undeployed RAR's loader stayed alive in WildFly until the adapter flushed its
 * bean classes from it on stop.
 */
class ReleaseOnStopTest {

    private static final int CYCLES = 3;
    /** Like WildFly's thread group "main", where its MSC threads introspect the activation spec: it lives on. */
    private static final ThreadGroup CONTAINER_THREADS = new ThreadGroup("container");
    /**
     * How long pgjdbc's cleaner thread (a thread of the driver's class loader) waits idle before it ends: 30 s by
     * default, 1 s here so that the test need not wait for it.
     */
    private static final String CLEANER_TTL = "pgjdbc.config.cleanup.thread.ttl";

    @Test
    void aStoppedAdapterLeavesNothingThatHoldsItsClassLoader() throws Exception {
        DatabaseConfig pg = PostgresServer.get().newDatabase("release_on_stop");
        List<WeakReference<ClassLoader>> loaders = new ArrayList<>();
        String ttl = System.setProperty(CLEANER_TTL, "1000");
        try {
            for (int i = 0; i < CYCLES; i++) {
                loaders.add(new WeakReference<>(startAndStop(pg)));
                Awaitility.await("the stopped adapter's connections closed").atMost(Duration.ofSeconds(30))
                        .until(() -> sessionsOn(pg) == 0);
            }
        } finally {
            if (ttl == null) {
                System.clearProperty(CLEANER_TTL);
            } else {
                System.setProperty(CLEANER_TTL, ttl);
            }
        }
        Awaitility.await("the class loaders of " + CYCLES + " stopped adapters collected")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    System.gc();
                    return loaders.stream().allMatch(r -> r.get() == null);
                });
    }

    /** @return the sessions open on that database, other than the one asking */
    private static int sessionsOn(DatabaseConfig db) throws Exception {
        try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Loads, starts and stops an adapter in a class loader of its own; returns that loader. */
    private static ClassLoader startAndStop(DatabaseConfig pg) throws Exception {
        // not closed: closing a URLClassLoader closes the jar files the JVM shares between loaders of one jar
        RarClassLoader rar = new RarClassLoader();
        Class<?> type = rar.loadClass(ServiceBrokerResourceAdapter.class.getName());
        assertTrue(type.getClassLoader() == rar, "the adapter's own copy");
        Object ra = type.getConstructor().newInstance();
        type.getMethod("setConnectionUrl", String.class).invoke(ra, pg.url());
        type.getMethod("setUser", String.class).invoke(ra, pg.user());
        type.getMethod("setPassword", String.class).invoke(ra, pg.password());
        type.getMethod("start", jakarta.resource.spi.BootstrapContext.class)
                .invoke(ra, new FakeBootstrapContext());
        try {
            Object registry = type.getMethod("registry").invoke(ra);
            Method get = registry.getClass().getMethod("get", rar.loadClass(DatabaseConfig.class.getName()));
            get.invoke(registry, type.getMethod("defaultDatabase").invoke(ra));
            Object h2 = rar.loadClass(DatabaseConfig.class.getName()).getConstructor(String.class, String.class,
                    String.class).newInstance("jdbc:h2:mem:release-" + UUID.randomUUID()
                    + ";DB_CLOSE_DELAY=-1;DB_CLOSE_ON_EXIT=FALSE", "sa", "");
            get.invoke(registry, h2);
            // as WildFly does with every driver a deployment carries (WFLYJCA0004), used or not
            Class.forName("com.microsoft.sqlserver.jdbc.SQLServerDriver", true, rar).getConstructor().newInstance();
            introspectElsewhere(rar.loadClass("org.ssbjca.inbound.ServiceBrokerActivationSpec"));
        } finally {
            type.getMethod("stop").invoke(ra);
        }
        return rar;
    }

    /**
     * Introspects a bean class as WildFly does with the activation spec when it creates a message-driven bean: on a
     * thread of another thread group than the one that later stops the adapter (an MSC thread of group "main", while
     * activations and stops run on other pools). The JDK keeps what it learnt in a cache per thread group.
     */
    private static void introspectElsewhere(Class<?> bean) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread t = new Thread(CONTAINER_THREADS, () -> {
            try {
                java.beans.Introspector.getBeanInfo(bean);
            } catch (java.beans.IntrospectionException e) {
                failure.set(e);
            }
        }, "container-introspection");
        t.start();
        t.join();
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /**
     * The RAR's classes and bundled drivers, loaded child-first from their own jars and class directories; the
     * Jakarta APIs, JBoss Logging and the test's fakes come from the parent, as the container's modules do.
     */
    private static final class RarClassLoader extends URLClassLoader {

        RarClassLoader() throws Exception {
            super(new URL[] {location(ServiceBrokerResourceAdapter.class), location(org.ssbjca.api.BrokerMessage.class),
                location(org.h2.Driver.class), location(org.postgresql.Driver.class),
                location(com.microsoft.sqlserver.jdbc.SQLServerDriver.class)},
                    ReleaseOnStopTest.class.getClassLoader());
        }

        private static URL location(Class<?> type) {
            return type.getProtectionDomain().getCodeSource().getLocation();
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && !name.startsWith("org.ssbjca.fakes.")) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException e) {
                        // not the RAR's: the container's
                    }
                }
                if (c == null) {
                    c = getParent().loadClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
