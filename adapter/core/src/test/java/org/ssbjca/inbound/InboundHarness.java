package org.ssbjca.inbound;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.fakes.FakeBootstrapContext;
import org.ssbjca.fakes.FakeEndpointFactory;

/**
 * A started resource adapter on a private H2 database with one initiator and one target service. Public for the tests
 * of other packages (management).
 */
public final class InboundHarness implements AutoCloseable {

    public static final String REQUEST = "Request";
    public static final String SET_PRIORITY = "SetPriority";
    public static final String CONTRACT = "Contract";
    public static final String INITIATOR_QUEUE = "InitiatorQueue";
    public static final String TARGET_QUEUE = "TargetQueue";
    public static final String INITIATOR = "Initiator";
    public static final String TARGET = "Target";

    public final FakeBootstrapContext context = new FakeBootstrapContext();
    public final ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
    public final BrokerRegistry.Entry db;

    public InboundHarness() throws Exception {
        this("jdbc:h2:mem:inbound-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000");
    }

    /** @param url the adapter's database, for instance an H2 TCP server the test stops and starts */
    public InboundHarness(String url) throws Exception {
        this(url, true);
    }

    /**
     * @param url the adapter's database
     * @param declare whether to declare the broker objects now (false: the database may be down; see
     *        {@link #declare()})
     */
    public InboundHarness(String url, boolean declare) throws Exception {
        this(new org.ssbjca.backend.DatabaseConfig(url, null, null), declare);
    }

    /**
     * @param database the adapter's database, with its credentials (a PostgreSQL database, say)
     * @param declare whether to declare the broker objects now
     */
    public InboundHarness(org.ssbjca.backend.DatabaseConfig database, boolean declare) throws Exception {
        this(database, declare, 200L, true);
    }

    /**
     * A private H2 database whose waiting RECEIVEs look again only when their queue is signalled or their wait ends,
     * for a test that counts a reader's looks.
     *
     * @param fallbackPollMillis the adapter's {@code fallbackPollMillis}, up to 60000 (the others use 200 ms)
     * @return the harness, its broker objects declared
     * @throws Exception if the adapter cannot start
     */
    public static InboundHarness polling(long fallbackPollMillis) throws Exception {
        return new InboundHarness(new org.ssbjca.backend.DatabaseConfig("jdbc:h2:mem:inbound-" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000", null, null), true, fallbackPollMillis, true);
    }

    /**
     * An adapter with {@code createSchema} off, on a database whose schema someone else installed; nothing declared.
     *
     * @param database the adapter's database, with its credentials
     * @return the started harness
     * @throws Exception if the adapter cannot start
     */
    public static InboundHarness withoutSchemaCreation(org.ssbjca.backend.DatabaseConfig database) throws Exception {
        return new InboundHarness(database, false, 200L, false);
    }

    private InboundHarness(org.ssbjca.backend.DatabaseConfig database, boolean declare, long fallbackPollMillis,
            boolean createSchema) throws Exception {
        ra.setCreateSchema(createSchema);
        ra.setConnectionUrl(database.url());
        ra.setUser(database.user());
        ra.setPassword(database.password());
        ra.setFallbackPollMillis(fallbackPollMillis);
        ra.start(context);
        db = ra.registry().get(ra.defaultDatabase());
        if (declare) {
            declare();
        }
    }

    /** Declares the message types, contract, queues and services (the adapter has prepared its schema). */
    public void declare() {
        try {
            db.prepareSchema();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        admin(a -> {
            a.createMessageType(REQUEST, Validation.NONE);
            a.createMessageType(SET_PRIORITY, Validation.WELL_FORMED_XML);
            a.createContract(CONTRACT, Map.of(REQUEST, SentBy.ANY, SET_PRIORITY, SentBy.INITIATOR));
            a.createQueue(INITIATOR_QUEUE);
            a.createQueue(TARGET_QUEUE);
            a.createService(INITIATOR, INITIATOR_QUEUE);
            a.createService(TARGET, TARGET_QUEUE, CONTRACT);
        });
    }

    public ServiceBrokerActivationSpec spec() throws Exception {
        ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
        spec.setResourceAdapter(ra);
        spec.setQueue(TARGET_QUEUE);
        spec.setWaitTimeout("500");
        spec.setReconnectInitialMillis("50");
        spec.setReconnectMaxMillis("500");
        return spec;
    }

    public FakeEndpointFactory activate(Class<?> listener, Object bean, boolean transacted,
            ServiceBrokerActivationSpec spec) throws Exception {
        FakeEndpointFactory factory = new FakeEndpointFactory(listener, bean, transacted, context.transactions());
        ra.endpointActivation(factory, spec);
        return factory;
    }

    /** Begins a dialog and sends the bodies on it, committed. */
    public Conversation send(String... bodies) {
        return tx(s -> {
            Conversation c = s.beginDialog(INITIATOR, TARGET, CONTRACT, DialogOptions.defaults());
            for (String b : bodies) {
                s.send(c.handle(), REQUEST, b.getBytes(UTF_8));
            }
            return c;
        });
    }

    public <T> T tx(Function<BrokerSession, T> work) {
        try (Connection c = db.source().open()) {
            BrokerSession s = db.broker().session(c);
            T result = work.apply(s);
            c.commit();
            s.afterCompletion(true);
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public <T> T query(Function<TestAdmin, T> work) {
        try (Connection c = db.source().open()) {
            T result = work.apply(TestAdmin.of(db.broker(), c));
            c.commit();
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public void admin(Consumer<TestAdmin> work) {
        query(a -> {
            work.accept(a);
            return null;
        });
    }

    /**
     * A RECEIVE from {@link #TARGET_QUEUE} through the connection factory, as a bean calls it (in its delivery, on the
     * delivery's session).
     *
     * @return the bodies received
     */
    public java.util.List<String> receiveThroughConnectionFactory(java.time.Duration timeout) {
        java.util.List<String> bodies = new java.util.ArrayList<>();
        withBrokerConnection(broker -> broker.receive(org.ssbjca.api.ReceiveRequest.from(TARGET_QUEUE)
                .timeout(timeout)).forEach(m -> bodies.add(m.bodyAsText())));
        return bodies;
    }

    /** What a bean does with a connection of the connection factory. */
    @FunctionalInterface
    public interface BeanWork {
        void run(org.ssbjca.api.ServiceBrokerConnection broker) throws Exception;
    }

    /**
     * Runs {@code work} on a new connection of this adapter's connection factory, as a bean gets one where it runs
     * (in a delivery: on the delivery's session), and destroys the connection after it.
     *
     * @throws IllegalStateException wrapping what {@code work} threw, if it is checked
     */
    public void withBrokerConnection(BeanWork work) {
        org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory mcf =
                new org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory();
        try {
            mcf.setResourceAdapter(ra);
            jakarta.resource.spi.ManagedConnection mc = mcf.createManagedConnection(null, null);
            try (org.ssbjca.api.ServiceBrokerConnection broker =
                    (org.ssbjca.api.ServiceBrokerConnection) mc.getConnection(null, null)) {
                work.run(broker);
            } finally {
                mc.destroy();
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs statements (DDL, test data) on a connection of their own, committed: the database as a user changes it. */
    public void execute(String... statements) throws SQLException {
        try (Connection c = db.source().open(); java.sql.Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
            c.commit();
        }
    }

    public long depth(String queue) {
        return query(a -> a.queueDepth(queue));
    }

    @Override
    public void close() {
        ra.stop();
    }
}
