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
        Descriptor d = new Descriptor(url, user, password);
        d.factories.append("    <connection-definition "
                + "class-name=\"org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory\"")
                .append(" jndi-name=\"java:/ssb/ConnectionFactory\" pool-name=\"ssb-ConnectionFactory\">\n")
                .append("      <xa-pool><min-pool-size>0</min-pool-size><max-pool-size>50</max-pool-size></xa-pool>\n")
                .append("      <recovery no-recovery=\"true\"/>\n")
                .append("    </connection-definition>\n");
        return d.xml();
    }

    /**
     * @param pg the test JVM's PostgreSQL ({@link Postgres#get()})
     * @return the descriptor: the adapter on that database, the default connection factory at
     *         {@code java:/ssb/ConnectionFactory} with crash recovery on
     */
    public static String forPostgres(Postgres pg) {
        return descriptor(pg.jdbcUrl(), pg.user(), pg.password()).xml();
    }

    /**
     * @param url the resource adapter's connectionUrl
     * @param user the user, or null
     * @param password the password, or null
     * @return a descriptor to add connection factories to; without any, {@link Descriptor#xml()} binds the default
     *         one at {@code java:/ssb/ConnectionFactory}
     */
    public static Descriptor descriptor(String url, String user, String password) {
        return new Descriptor(url, user, password);
    }

    /**
     * An {@code ironjacamar.xml} with several connection factories, each as the shipped descriptor sets it up:
     * validated on match (stale connections are discarded after a database restart) and with crash recovery on
     * (without a {@code <recovery>} element WildFly disables it: IJ020016), so that the transaction manager asks the
     * factory for an XA resource to resolve the branches its connections left in doubt.
     */
    public static final class Descriptor {
        private final String url;
        private final String user;
        private final String password;
        private final StringBuilder factories = new StringBuilder();

        private Descriptor(String url, String user, String password) {
            this.url = url;
            this.user = user;
            this.password = password;
        }

        /**
         * @param jndiName where to bind it
         * @param factoryUrl its own connectionUrl, or null for the adapter's
         * @return this
         */
        public Descriptor connectionFactory(String jndiName, String factoryUrl) {
            String pool = "ssb-" + jndiName.substring(jndiName.lastIndexOf('/') + 1);
            factories.append("    <connection-definition "
                    + "class-name=\"org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory\"")
                    .append(" jndi-name=\"").append(jndiName).append("\" pool-name=\"").append(pool).append("\">\n");
            if (factoryUrl != null) {
                factories.append("  ");
                property(factories, "connectionUrl", factoryUrl);
            }
            factories.append("      "
                    + "<xa-pool><min-pool-size>0</min-pool-size><max-pool-size>50</max-pool-size></xa-pool>\n")
                    .append("      <validation><validate-on-match>true</validate-on-match></validation>\n")
                    .append("      <recovery no-recovery=\"false\">");
            if (user != null) {
                factories.append("<recover-credential><user-name>").append(escape(user)).append("</user-name>")
                        .append("<password>").append(escape(password == null ? "" : password))
                        .append("</password></recover-credential>");
            }
            factories.append("</recovery>\n")
                    .append("    </connection-definition>\n");
            return this;
        }

        /** @return the descriptor */
        public String xml() {
            if (factories.length() == 0) {
                connectionFactory("java:/ssb/ConnectionFactory", null);
            }
            StringBuilder x = new StringBuilder();
            x.append("<ironjacamar xmlns=\"http://www.ironjacamar.org/doc/schema\">\n");
            property(x, "connectionUrl", url);
            property(x, "user", user);
            property(x, "password", password);
            x.append("  <transaction-support>XATransaction</transaction-support>\n")
                    .append("  <connection-definitions>\n")
                    .append(factories)
                    .append("  </connection-definitions>\n")
                    .append("</ironjacamar>\n");
            return x.toString();
        }
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
