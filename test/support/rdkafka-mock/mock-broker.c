/*
 * librdkafka's mock cluster (rdkafka_mock.h) as a loopback Kafka broker for the event-log contract tests.
 *
 * Prints the cluster's bootstrap servers as the first line on stdout, then serves commands, one a line, on
 * stdin, answering each with one line on stdout:
 *   create-topic <name> <partitions>   ->  "ok", or "error <librdkafka error name>"
 * The mock answers no CreateTopics request, so tests create topics through its own API this way.
 * It stops, destroying the cluster, when stdin closes or on SIGTERM/SIGINT.
 */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t stopping = 0;

static void on_stop_signal(int signal_number) {
        (void)signal_number;
        stopping = 1;
}

static void answer_command(rd_kafka_mock_cluster_t *cluster, char *line) {
        char topic[256];
        int partitions;
        if (sscanf(line, "create-topic %255s %d", topic, &partitions) == 2 && partitions > 0) {
                rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(cluster, topic, partitions, 1);
                if (err == RD_KAFKA_RESP_ERR_NO_ERROR)
                        printf("ok\n");
                else
                        printf("error %s\n", rd_kafka_err2name(err));
        } else {
                line[strcspn(line, "\n")] = '\0';
                printf("error unknown command: %s\n", line);
        }
        fflush(stdout);
}

int main(void) {
        /* No SA_RESTART: a signal interrupts the blocking read of stdin, so the loop below ends. The signals are
         * blocked while librdkafka starts its threads, which inherit the mask: only this thread takes them. */
        struct sigaction stop = {.sa_handler = on_stop_signal};
        sigaction(SIGTERM, &stop, NULL);
        sigaction(SIGINT, &stop, NULL);
        sigset_t stop_signals;
        sigemptyset(&stop_signals);
        sigaddset(&stop_signals, SIGTERM);
        sigaddset(&stop_signals, SIGINT);
        pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);

        char error[512];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        /* The cluster needs a client handle to live in; this one never connects anywhere. */
        rd_kafka_t *handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
        if (handle == NULL) {
                fprintf(stderr, "mock-broker: %s\n", error);
                return 1;
        }
        rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new(handle, 1);
        if (cluster == NULL) {
                fprintf(stderr, "mock-broker: could not create the mock cluster\n");
                rd_kafka_destroy(handle);
                return 1;
        }
        pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
        printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
        fflush(stdout);

        char line[512];
        while (!stopping && fgets(line, sizeof(line), stdin) != NULL)
                answer_command(cluster, line);

        rd_kafka_mock_cluster_destroy(cluster);
        rd_kafka_destroy(handle);
        return 0;
}
