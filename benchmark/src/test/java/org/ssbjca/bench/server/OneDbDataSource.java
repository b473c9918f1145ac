package org.ssbjca.bench.server;

/** The XA datasource the one-database phase's XA consumers write through, declared in their ejb-jar.xml. */
public final class OneDbDataSource {

    /** Its JNDI name, in the consumer's module. */
    public static final String NAME = "java:module/jdbc/OneDb";

    private OneDbDataSource() {
    }

    /**
     * @param url the benchmark's PostgreSQL
     * @param user its user
     * @param password its password
     * @return the ejb-jar.xml {@code data-source} element: pgjdbc's XA datasource, transactional
     */
    public static String descriptor(String url, String user, String password) {
        return "      <data-source>\n"
                + "        <name>" + NAME + "</name>\n"
                + "        <class-name>org.postgresql.xa.PGXADataSource</class-name>\n"
                + "        <url>" + url + "</url>\n"
                + "        <user>" + user + "</user>\n"
                + "        <password>" + password + "</password>\n"
                + "        <transactional>true</transactional>\n"
                + "        <max-pool-size>10</max-pool-size>\n"
                + "      </data-source>\n";
    }
}
