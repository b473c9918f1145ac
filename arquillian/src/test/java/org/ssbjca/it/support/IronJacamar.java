package org.ssbjca.it.support;

/** The {@code META-INF/ironjacamar.xml} a test deploys the RAR with, to point the adapter at its database. */
public final class IronJacamar {

    private IronJacamar() {
    }

    /**
     * @param url the resource adapter's connectionUrl (the default of every connection factory and activation)
     * @param user the user, or null
     * @param password the password, or null
     * @return the descriptor: that database, and the default connection factory at {@code java:/ssb/ConnectionFactory}
     */
    public static String forDatabase(String url, String user, String password) {
        StringBuilder x = new StringBuilder();
        x.append("<ironjacamar xmlns=\"http://www.ironjacamar.org/doc/schema\">\n");
        property(x, "connectionUrl", url);
        property(x, "user", user);
        property(x, "password", password);
        x.append("  <transaction-support>XATransaction</transaction-support>\n")
                .append("  <connection-definitions>\n")
                .append("    <connection-definition class-name=\"org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory\"")
                .append(" jndi-name=\"java:/ssb/ConnectionFactory\" pool-name=\"ssb-ConnectionFactory\">\n")
                .append("      <xa-pool><min-pool-size>0</min-pool-size><max-pool-size>50</max-pool-size></xa-pool>\n")
                .append("      <recovery no-recovery=\"true\"/>\n")
                .append("    </connection-definition>\n")
                .append("  </connection-definitions>\n")
                .append("</ironjacamar>\n");
        return x.toString();
    }

    /**
     * @param name a name for the in-memory database, unique per test class
     * @return the descriptor for a private in-memory H2 database in the server
     */
    public static String h2InMemory(String name) {
        return forDatabase("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", null);
    }

    private static void property(StringBuilder x, String name, String value) {
        if (value != null) {
            x.append("  <config-property name=\"").append(name).append("\">").append(escape(value))
                    .append("</config-property>\n");
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
