package org.ssbjca.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;

/** One backend as a test sees it: transactions, and a fresh set of broker objects per test. */
public final class Db {

    private final Conformance.Lazy lazy;

    Db(Conformance.Lazy lazy) {
        this.lazy = lazy;
    }

    /** @return the fixture, or aborts the test (reported as skipped) when the backend cannot run here */
    BackendFixture fixture() {
        BackendFixture f = lazy.get();
        Assumptions.assumeTrue(f.unavailableReason() == null, f.unavailableReason());
        return f;
    }

    Broker broker() {
        return fixture().broker();
    }

    /** Runs work in its own transaction and commits it. */
    <T> T tx(Function<BrokerSession, T> work) {
        try (Tx tx = begin()) {
            T result = work.apply(tx.session());
            tx.commit();
            return result;
        }
    }

    void run(Consumer<BrokerSession> work) {
        tx(s -> {
            work.accept(s);
            return null;
        });
    }

    <T> T admin(Function<TestAdmin, T> work) {
        try (Tx tx = begin()) {
            T result = work.apply(TestAdmin.of(broker(), tx.connection()));
            tx.commit();
            return result;
        }
    }

    /** @return how many messages the queue holds */
    long depth(String queue) {
        return admin(a -> a.queueDepth(queue));
    }

    /** @return the state code of an endpoint, or null when it does not exist */
    String state(UUID handle) {
        return admin(a -> a.endpointState(handle));
    }

    /** @return how many endpoints are not closed */
    long endpoints() {
        return admin(TestAdmin::endpointCount);
    }

    /** @return an open transaction; close it to roll back what was not committed */
    Tx begin() {
        try {
            Connection c = fixture().connect();
            return new Tx(c, broker().session(c));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + lazy.name, e);
        }
    }

    /**
     * @return a session on a connection of its own that lives until closed, as a reader's does: the database plans
     *         statements that one connection runs again and again differently (PostgreSQL switches to a generic plan
     *         after a few executions of a prepared statement)
     */
    Reader reader() {
        return reader(java.util.List.of());
    }

    /**
     * @param settings session settings to run first, e.g. one of {@link BackendFixture#planShapes()}
     * @return a reader's long-lived session with those settings
     */
    Reader reader(java.util.List<String> settings) {
        try {
            Connection c = fixture().connect();
            try (java.sql.Statement s = c.createStatement()) {
                for (String setting : settings) {
                    s.execute(setting);
                }
            }
            c.commit();
            return new Reader(c, broker().session(c));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + lazy.name, e);
        }
    }

    /**
     * Declares a fresh set of objects: message types Request (initiator), Reply (target), Any (either side),
     * Empty (VALIDATION = EMPTY, either side), Xml (VALIDATION = WELL_FORMED_XML, either side); a contract with all
     * of them; an initiator service on its own queue; a target service on its own queue.
     */
    Objects objects() {
        Objects o = new Objects(UUID.randomUUID().toString().substring(0, 8));
        admin(a -> {
            a.createMessageType(o.request, Validation.NONE);
            a.createMessageType(o.reply, Validation.NONE);
            a.createMessageType(o.any, Validation.NONE);
            a.createMessageType(o.empty, Validation.EMPTY);
            a.createMessageType(o.xml, Validation.WELL_FORMED_XML);
            Map<String, SentBy> types = new LinkedHashMap<>();
            types.put(o.request, SentBy.INITIATOR);
            types.put(o.reply, SentBy.TARGET);
            types.put(o.any, SentBy.ANY);
            types.put(o.empty, SentBy.ANY);
            types.put(o.xml, SentBy.ANY);
            a.createContract(o.contract, types);
            a.createQueue(o.initiatorQueue);
            a.createQueue(o.targetQueue);
            a.createService(o.initiatorService, o.initiatorQueue);
            a.createService(o.targetService, o.targetQueue, o.contract);
            return null;
        });
        return o;
    }

    @Override
    public String toString() {
        return lazy.name;
    }

    /** The names of one test's objects. */
    static final class Objects {
        final String request;
        final String reply;
        final String any;
        final String empty;
        final String xml;
        final String contract;
        final String initiatorQueue;
        final String targetQueue;
        final String initiatorService;
        final String targetService;

        Objects(String id) {
            request = "test/" + id + "/Request";
            reply = "test/" + id + "/Reply";
            any = "test/" + id + "/Any";
            empty = "test/" + id + "/Empty";
            xml = "test/" + id + "/Xml";
            contract = "test/" + id + "/Contract";
            initiatorQueue = "InitiatorQueue_" + id;
            targetQueue = "TargetQueue_" + id;
            initiatorService = "test/" + id + "/InitiatorService";
            targetService = "test/" + id + "/TargetService";
        }
    }

    /** A long-lived connection that runs one transaction after another, as a reader does. */
    static final class Reader implements AutoCloseable {
        private final Connection c;
        private final BrokerSession session;

        Reader(Connection c, BrokerSession session) {
            this.c = c;
            this.session = session;
        }

        BrokerSession session() {
            return session;
        }

        Connection connection() {
            return c;
        }

        /** Runs work in a transaction of this connection and commits it. */
        <T> T tx(Function<BrokerSession, T> work) {
            return end(work.apply(session), true);
        }

        /** Runs work in a transaction of this connection and rolls it back. */
        <T> T rollback(Function<BrokerSession, T> work) {
            return end(work.apply(session), false);
        }

        private <T> T end(T result, boolean commit) {
            try {
                if (commit) {
                    c.commit();
                } else {
                    c.rollback();
                }
                session.afterCompletion(commit);
                return result;
            } catch (SQLException e) {
                throw new IllegalStateException(commit ? "commit failed" : "rollback failed", e);
            }
        }

        @Override
        public void close() {
            try {
                c.rollback();
                c.close();
            } catch (SQLException e) {
                // nothing left to release
            }
        }
    }

    /** A transaction on its own connection. */
    static final class Tx implements AutoCloseable {
        private final Connection c;
        private final BrokerSession session;
        private boolean done;

        Tx(Connection c, BrokerSession session) {
            this.c = c;
            this.session = session;
        }

        BrokerSession session() {
            return session;
        }

        Connection connection() {
            return c;
        }

        void commit() {
            try {
                c.commit();
                done = true;
                session.afterCompletion(true);
            } catch (SQLException e) {
                throw new IllegalStateException("commit failed", e);
            }
        }

        void rollback() {
            try {
                c.rollback();
                done = true;
                session.afterCompletion(false);
            } catch (SQLException e) {
                throw new IllegalStateException("rollback failed", e);
            }
        }

        @Override
        public void close() {
            try {
                if (!done) {
                    rollback();
                }
            } finally {
                try {
                    c.close();
                } catch (SQLException e) {
                    // nothing left to release
                }
            }
        }
    }
}
