package org.ssbjca.it.support;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Map;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.brokers.Brokers;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.backend.portable.PortableOptions;

/**
 * A test database seen from the client JVM, through the adapter's own portable backend and the core module's test kit
 * ({@link TestAdmin}, from the test kit): creates the broker schema and the tests' objects (message type
 * {@value #REQUEST}, contract {@value #CONTRACT}, initiator service {@value #CLIENT}, a target service
 * {@code <queue>Service} per queue), sends messages, counts rows. Client side only; never in a deployment.
 */
public final class BrokerDb implements AutoCloseable {

    /** The tests' message type. */
    public static final String REQUEST = "ItRequest";
    /** The tests' contract. */
    public static final String CONTRACT = "ItContract";
    /** The initiator service of every test dialog. */
    public static final String CLIENT = "ItClient";

    private final DatabaseConfig config;
    private final ConnectionSource source;
    private final Broker broker;

    /**
     * @param url a PostgreSQL JDBC URL
     * @param user the user
     * @param password the password
     */
    public BrokerDb(String url, String user, String password) {
        this.config = new DatabaseConfig(url, user, password);
        this.source = new ConnectionSource(config);
        this.broker = Brokers.create(source, org.ssbjca.backend.BackgroundRunner.daemonThreads(),
                new PortableOptions(500, 1000, Clock.systemUTC()));
    }

    /** @param pg the test JVM's PostgreSQL */
    public static BrokerDb of(Postgres pg) {
        return new BrokerDb(pg.jdbcUrl(), pg.user(), pg.password());
    }

    /**
     * Creates the broker schema if missing, the tests' message type, contract and initiator service, and a target
     * service for each queue, plus the tables the test beans write: {@code it_record} (one row per message a bean
     * handled) and {@code it_attempt} (deliveries counted outside the delivery's transaction). Idempotent.
     *
     * @param queues the target queues
     */
    public BrokerDb declare(String... queues) {
        try (Connection c = source.open()) {
            broker.prepareSchema(c, true);
            TestAdmin a = TestAdmin.of(broker, c);
            a.createMessageType(REQUEST, Validation.NONE);
            a.createContract(CONTRACT, Map.of(REQUEST, SentBy.ANY));
            a.createQueue("ItClientQueue");
            a.createService(CLIENT, "ItClientQueue");
            for (String q : queues) {
                a.createQueue(q);
                a.createService(q + "Service", q, CONTRACT);
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot declare the test objects: " + e.getMessage(), e);
        }
        return createRecordTables();
    }

    /** Creates {@code it_record} and {@code it_attempt} if they are missing. */
    public BrokerDb createRecordTables() {
        execute("CREATE TABLE IF NOT EXISTS it_record (id BIGSERIAL PRIMARY KEY, body VARCHAR(200) NOT NULL, "
                + "reader VARCHAR(300), recorded_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())");
        execute("CREATE TABLE IF NOT EXISTS it_attempt (id BIGSERIAL PRIMARY KEY, body VARCHAR(200) NOT NULL, "
                + "attempted_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())");
        return this;
    }

    /**
     * Sends {@code conversations * perConversation} messages to {@code queue}'s service, bodies
     * {@code prefix-c-i}, committed every 1000 messages.
     *
     * @return how many were sent
     */
    public int send(String queue, String prefix, int conversations, int perConversation) {
        int sent = 0;
        try (Connection c = source.open()) {
            BrokerSession s = broker.session(c);
            for (int conv = 0; conv < conversations; conv++) {
                Conversation dialog = s.beginDialog(CLIENT, queue + "Service", CONTRACT, DialogOptions.defaults());
                for (int i = 0; i < perConversation; i++) {
                    s.send(dialog.handle(), REQUEST, (prefix + "-" + conv + "-" + i).getBytes(UTF_8));
                    if (++sent % 1000 == 0) {
                        c.commit();
                        s.afterCompletion(true);
                    }
                }
            }
            c.commit();
            s.afterCompletion(true);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot send: " + e.getMessage(), e);
        }
        return sent;
    }

    /** Sends one message on a dialog of its own. */
    public void sendOne(String queue, String body) {
        try (Connection c = source.open()) {
            BrokerSession s = broker.session(c);
            Conversation dialog = s.beginDialog(CLIENT, queue + "Service", CONTRACT, DialogOptions.defaults());
            s.send(dialog.handle(), REQUEST, body.getBytes(UTF_8));
            c.commit();
            s.afterCompletion(true);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot send: " + e.getMessage(), e);
        }
    }

    /**
     * Fire and forget, {@code n} times: a dialog of its own to {@code queue}'s service, one message, and END at once,
     * in one transaction. With no bean ending the target side, both endpoints stay (initiator DO, target DI).
     */
    public void fireAndForget(String queue, int n) {
        try (Connection c = source.open()) {
            BrokerSession s = broker.session(c);
            for (int i = 0; i < n; i++) {
                Conversation dialog = s.beginDialog(CLIENT, queue + "Service", CONTRACT, DialogOptions.defaults());
                s.send(dialog.handle(), REQUEST, ("fire-" + i).getBytes(UTF_8));
                s.endConversation(dialog.handle(), null, null);
            }
            c.commit();
            s.afterCompletion(true);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot send: " + e.getMessage(), e);
        }
    }

    /**
     * @param sql a query returning one number
     * @param params its parameters
     * @return the number
     */
    public long count(String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(config.url(), config.user(), config.password())) {
            return Jdbc.count(c, sql, params);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param sql a query returning numbers in its first column
     * @param params its parameters
     * @return the numbers
     */
    public java.util.List<Long> numbers(String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(config.url(), config.user(), config.password())) {
            return Jdbc.list(c, sql, rs -> rs.getLong(1), params);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param sql a query returning texts in its first column
     * @param params its parameters
     * @return the texts
     */
    public java.util.List<String> texts(String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(config.url(), config.user(), config.password())) {
            return Jdbc.list(c, sql, rs -> rs.getString(1), params);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param sql a query returning one text
     * @return the text
     */
    public String text(String sql) {
        try (Connection c = DriverManager.getConnection(config.url(), config.user(), config.password())) {
            return Jdbc.first(c, sql, rs -> rs.getString(1));
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** @return the prepared (in-doubt) transactions of the whole server */
    public long prepared() {
        return count("SELECT COUNT(*) FROM pg_prepared_xacts");
    }

    /**
     * @param database a database of the server
     * @return its prepared (in-doubt) transactions
     */
    public long prepared(String database) {
        return count("SELECT COUNT(*) FROM pg_prepared_xacts WHERE database = ?", database);
    }

    /** @return how many messages wait in the queue */
    public long depth(String queue) {
        return count("SELECT COUNT(*) FROM ssb.message WHERE queue_name = ?", queue);
    }

    /** @param sql a statement to run in auto-commit */
    public void execute(String sql) {
        try (Connection c = DriverManager.getConnection(config.url(), config.user(), config.password());
             Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        broker.close();
    }
}
