package org.ssbjca.conformance;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.PendingGroup;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;

/**
 * The states a PostgreSQL planner sees the portable schema in on users' databases: tables never analysed (a fresh
 * install), analysed while empty (an {@code ANALYZE} or autovacuum before traffic), and analysed with traffic in them
 * (autovacuum after some use). The same statement can get a different plan in each, so the conformance suite runs in
 * all three. Each state is pinned: autovacuum is turned off on the schema's tables, so that the state a test ran in is
 * the one its name says. Public for the tests of other packages.
 */
public enum PlannerState {

    /** No statistics: the tables as the install script left them. */
    FRESH("PostgreSQL"),
    /** {@code ANALYZE} on the empty tables. */
    ANALYZED_EMPTY("PostgreSQL, analysed empty"),
    /**
     * {@code ANALYZE} with traffic in the tables: a queue of 1,000 messages over 200 conversations, 20 of their groups
     * prioritised, 500 idle conversation groups (dialogs begun, nothing sent), a dead letter and failed deliveries.
     */
    ANALYZED_POPULATED("PostgreSQL, analysed with traffic");

    private static final String FILLER = "planner_filler";

    private final String label;

    PlannerState(String label) {
        this.label = label;
    }

    /** @return the backend's name in test reports */
    public String label() {
        return label;
    }

    /** @return a database name for this state */
    public String databaseName(String prefix) {
        return prefix + "_" + name().toLowerCase();
    }

    /**
     * Brings a database with the portable schema installed into this state.
     *
     * @param broker the broker of that database
     * @param c a connection to it, auto-commit off
     * @throws SQLException on error
     */
    public void apply(Broker broker, Connection c) throws SQLException {
        if (this == ANALYZED_POPULATED) {
            populate(broker, c);
        }
        List<String> tables = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables"
                        + " WHERE table_schema = 'ssb' AND table_type = 'BASE TABLE'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        try (Statement s = c.createStatement()) {
            for (String t : tables) {
                s.execute("ALTER TABLE ssb." + t + " SET (autovacuum_enabled = false)");
            }
        }
        c.commit();
        if (this != FRESH) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                for (String t : tables) {
                    s.execute("VACUUM ANALYZE ssb." + t);
                }
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }

    private static void populate(Broker broker, Connection c) throws SQLException {
        TestAdmin admin = TestAdmin.of(broker, c);
        String type = FILLER + "/Request";
        String contract = FILLER + "/Contract";
        admin.createMessageType(type, Validation.NONE);
        admin.createContract(contract, Map.of(type, SentBy.ANY));
        admin.createQueue(FILLER + "_initiator");
        admin.createQueue(FILLER + "_target");
        admin.createService(FILLER + "/Initiator", FILLER + "_initiator");
        admin.createService(FILLER + "/Target", FILLER + "_target", contract);
        c.commit();
        BrokerSession s = broker.session(c);
        byte[] body = "filler".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 200; i++) {
            Conversation conversation = s.beginDialog(FILLER + "/Initiator", FILLER + "/Target", contract,
                    DialogOptions.defaults());
            for (int m = 0; m < 5; m++) {
                s.send(conversation.handle(), type, body);
            }
        }
        for (int i = 0; i < 500; i++) {
            s.beginDialog(FILLER + "/Initiator", FILLER + "/Target", contract, DialogOptions.defaults());
        }
        c.commit();
        s.afterCompletion(true);
        for (PendingGroup g : broker.ledger(c).pendingGroups(FILLER + "_target", 20)) {
            s.setPriority(g.groupId(), 10);
        }
        c.commit();
        s.afterCompletion(true);
        List<BrokerMessage> some = s.receive(ReceiveRequest.from(FILLER + "_target").top(5));
        c.rollback();
        s.afterCompletion(false);
        for (BrokerMessage m : some) {
            broker.ledger(c).recordFailure(FILLER + "_target", m, "filler failure");
        }
        broker.ledger(c).deadLetter(FILLER + "_target", some.get(0), 3, "filler dead letter");
        c.commit();
    }
}
