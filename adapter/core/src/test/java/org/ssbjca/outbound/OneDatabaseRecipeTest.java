package org.ssbjca.outbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LazyEnlistableConnectionManager;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import java.lang.reflect.Field;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.docs.Docs;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.RecordingXAResource;
import org.ssbjca.inbound.InboundHarness;

/**
 * docs/guide/one-database.md: the page's recipe, its MDB compiled as written (with the imports a source file has,
 * and stand-ins for the EJB annotations this module does not depend on), gets its connection factory injected as
 * the container does and handles deliveries: its rows commit with the message in one branch committed in one phase,
 * the factory's own connection never enlisted; a payment for an unknown account rolls back, its INSERT with it; with a
 * second XA resource enlisted the rows still commit with the message, in two phases.
 */
class OneDatabaseRecipeTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theRecipesRowsCommitWithTheMessageInOnePhase(String kind, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), true)) {
            h.execute("CREATE TABLE payment (account INT, amount INT)",
                    "CREATE TABLE account (id INT PRIMARY KEY, balance INT)", "INSERT INTO account VALUES (1, 100)");
            Enlister cm = new Enlister();
            BrokerMessageListener recipe = recipe(dir, h, cm);
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, recipe, true, h.spec());

            h.send("1:5", "1:7");
            await().atMost(Duration.ofSeconds(30)).until(() -> f.commits.get() == 2);
            h.send("2:3"); // no account 2: rolls back, and is delivered again until deactivated
            await().atMost(Duration.ofSeconds(30)).until(() -> f.rollbacks.get() >= 1);
            h.ra.endpointDeactivation(f, h.spec());

            assertEquals(112, count(h, "SELECT balance FROM account WHERE id = 1"));
            assertEquals(2, count(h, "SELECT COUNT(*) FROM payment WHERE account = 1"));
            assertEquals(0, count(h, "SELECT COUNT(*) FROM payment WHERE account = 2"), "rolled back with it");
            assertEquals(List.of(), cm.enlisted, "the factory's connection is never enlisted in a delivery");
            assertEquals(List.of(), f.xaCalls, "no resource but the reader's branch, which commits in one phase");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2"})
    void withASecondResourceTheRowsCommitWithTheMessageInTwoPhases(String kind,
            @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), true)) {
            h.execute("CREATE TABLE payment (account INT, amount INT)",
                    "CREATE TABLE account (id INT PRIMARY KEY, balance INT)", "INSERT INTO account VALUES (1, 100)");
            BrokerMessageListener recipe = recipe(dir, h, new Enlister());
            BrokerMessageListener withSecond = m -> {
                try {
                    FakeEndpointFactory.enlist(new RecordingXAResource(), "second"); // an XA datasource, JmsXA...
                } catch (javax.transaction.xa.XAException e) {
                    throw new IllegalStateException(e);
                }
                recipe.onMessage(m);
            };
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, withSecond, true, h.spec());

            h.send("1:5");
            await().atMost(Duration.ofSeconds(30)).until(() -> f.commits.get() == 1);
            h.ra.endpointDeactivation(f, h.spec());

            assertEquals(105, count(h, "SELECT balance FROM account WHERE id = 1"));
            assertTrue(f.xaCalls.containsAll(List.of("reader prepare", "second prepare", "reader commit two-phase")),
                    String.valueOf(f.xaCalls));
        }
    }

    private static DatabaseConfig database(String kind) {
        int n = DATABASES.incrementAndGet();
        return "H2".equals(kind) ? new DatabaseConfig("jdbc:h2:mem:onedb-" + n + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000",
                null, null) : PostgresServer.get().newDatabase("onedb_" + n);
    }

    /** The page's MDB, compiled as written and given the connection factory as {@code @Resource} injects it. */
    private static BrokerMessageListener recipe(Path dir, InboundHarness h, Enlister cm) throws Exception {
        String section = Docs.section("docs/guide/one-database.md", "## Recipe");
        int start = section.indexOf("```java\n") + "```java\n".length();
        String code = section.substring(start, section.indexOf("```", start));
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("PaymentMdb.java"), "import jakarta.annotation.Resource;\n"
                + "import jakarta.ejb.ActivationConfigProperty;\nimport jakarta.ejb.MessageDriven;\n"
                + "import java.sql.PreparedStatement;\nimport java.sql.SQLException;\nimport org.ssbjca.api.*;\n"
                + "import org.jboss.ejb3.annotation.ResourceAdapter;\n" + code);
        Files.writeString(Files.createDirectories(src.resolve("jakarta/ejb")).resolve("MessageDriven.java"),
                "package jakarta.ejb; public @interface MessageDriven { ActivationConfigProperty[] activationConfig()"
                        + " default {}; }");
        Files.writeString(src.resolve("jakarta/ejb/ActivationConfigProperty.java"), "package jakarta.ejb;"
                + " public @interface ActivationConfigProperty { String propertyName(); String propertyValue(); }");
        Files.writeString(Files.createDirectories(src.resolve("jakarta/annotation")).resolve("Resource.java"),
                "package jakarta.annotation; public @interface Resource { String lookup() default \"\"; }");
        Files.writeString(Files.createDirectories(src.resolve("org/jboss/ejb3/annotation")).resolve(
                "ResourceAdapter.java"), "package org.jboss.ejb3.annotation; public @interface ResourceAdapter {"
                + " String value(); }");
        Path out = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, System.err, "-d", out.toString(), "-cp", System.getProperty("java.class.path"),
                src.resolve("PaymentMdb.java").toString(), src.resolve("jakarta/ejb/MessageDriven.java").toString(),
                src.resolve("jakarta/ejb/ActivationConfigProperty.java").toString(),
                src.resolve("jakarta/annotation/Resource.java").toString(),
                src.resolve("org/jboss/ejb3/annotation/ResourceAdapter.java").toString());
        assertEquals(0, rc, "the recipe compiles");
        URLClassLoader loader = new URLClassLoader(new java.net.URL[] {out.toUri().toURL()},
                OneDatabaseRecipeTest.class.getClassLoader());
        Object bean = loader.loadClass("PaymentMdb").getConstructor().newInstance();
        ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
        mcf.setResourceAdapter(h.ra);
        Field broker = bean.getClass().getDeclaredField("broker");
        broker.setAccessible(true);
        broker.set(bean, new ServiceBrokerConnectionFactoryImpl(mcf, cm));
        return (BrokerMessageListener) bean;
    }

    private static int count(InboundHarness h, String sql) throws Exception {
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            int n = rs.getInt(1);
            c.rollback();
            return n;
        }
    }

    /**
     * A connection manager that enlists lazily, as WildFly's does: a new managed connection per handle, destroyed when
     * its handle is closed; an enlistment asked for in a delivery goes into the delivery's transaction.
     */
    static final class Enlister implements ConnectionManager, LazyEnlistableConnectionManager {
        private static final long serialVersionUID = 1L;
        final List<ManagedConnection> enlisted = new CopyOnWriteArrayList<>();

        @Override
        public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info)
                throws ResourceException {
            ManagedConnection mc = mcf.createManagedConnection(null, info);
            mc.addConnectionEventListener(new jakarta.resource.spi.ConnectionEventListener() {
                @Override
                public void connectionClosed(jakarta.resource.spi.ConnectionEvent event) {
                    try {
                        mc.destroy();
                    } catch (ResourceException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void localTransactionStarted(jakarta.resource.spi.ConnectionEvent event) {
                }

                @Override
                public void localTransactionCommitted(jakarta.resource.spi.ConnectionEvent event) {
                }

                @Override
                public void localTransactionRolledback(jakarta.resource.spi.ConnectionEvent event) {
                }

                @Override
                public void connectionErrorOccurred(jakarta.resource.spi.ConnectionEvent event) {
                }
            });
            return mc.getConnection(null, info);
        }

        @Override
        public void lazyEnlist(ManagedConnection mc) throws ResourceException {
            enlisted.add(mc);
            try {
                FakeEndpointFactory.enlist(mc.getXAResource(), "outbound");
            } catch (javax.transaction.xa.XAException e) {
                throw new ResourceException(e);
            }
        }
    }
}
