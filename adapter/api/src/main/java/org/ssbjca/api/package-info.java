/**
 * The application API of ssb-jca: the only package an EJB or MDB compiles against.
 *
 * <h2>Outbound</h2>
 * Inject a {@link org.ssbjca.api.ServiceBrokerConnectionFactory} with
 * {@code @Resource(lookup = "java:/ssb/ConnectionFactory")}, open a {@link org.ssbjca.api.ServiceBrokerConnection}
 * in a try-with-resources block and call its Service Broker verbs. Every verb runs in the caller's JTA transaction
 * when there is one (the connection is enlisted as an XA resource), otherwise in the connection's local transaction.
 *
 * <h2>Inbound</h2>
 * A message-driven bean implements {@link org.ssbjca.api.BrokerMessageListener} (one message per call) or
 * {@link org.ssbjca.api.ConversationGroupListener} (all messages one RECEIVE returned for one conversation group)
 * and names its queue with {@code @ActivationConfigProperty(propertyName = "queue", propertyValue = "...")}.
 *
 * <h2>Table queues</h2>
 * A message-driven bean implements {@link org.ssbjca.api.TableRowListener} and names a table of the application's and
 * its columns ({@code table}, {@code keyColumn}, {@code payloadColumn}, ...): each row is delivered as a
 * {@link org.ssbjca.api.TableRow}, exactly once in the {@code transactional} mode, at least once in the {@code leased}
 * mode.
 *
 * <p>This package depends on nothing but the JDK (java.*, javax.xml, org.w3c.dom), so applications need only this jar
 * at compile time, with {@code provided} scope.
 */
package org.ssbjca.api;
