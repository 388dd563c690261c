// The queues' host side: words written into a transmit queue (by PIO or the TX DMA)
// become messages that launch by themselves when their last word is in (002 §5.1 L153);
// words read from a receive queue dequeue the head message.
#include <string>

#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx {

void Niu::push_word(Priority p, uint32_t word, bool from_dma) {
    TxQueue& q = tx_[uint32_t(p)];
    const std::string node = "node " + std::to_string(params_.node_id) + ": ";
    if (p == Priority::high && !from_dma) {
        if (tx_dma_.mode == TxMode::rdma)
            throw RdmaError(node + "PIO write to the high-priority transmit queue while an RDMA transmit "
                                   "owns it (RDMA cannot coexist with other high-priority modes)");
        if (tx_dma_.mode == TxMode::vi)
            throw DriverError(node + "PIO write to the high-priority transmit queue while the VI transmit "
                                     "DMA streams into it");
    }
    if (q.expected == 0) {  // a header word starts a message
        if (q.used() >= params_.queue_messages)
            throw QueueOverflowError(node + "the " + std::string(to_string(p)) + "-priority transmit queue "
                                     "already holds " + std::to_string(params_.queue_messages) + " messages");
        const Header h = Header::unpack(word);
        if (h.priority != p)
            throw MessageFormatError(node + "a " + std::string(to_string(h.priority)) +
                                     "-priority header was written to the " + to_string(p) +
                                     "-priority transmit queue");
        q.partial.n_words = 0;
        q.expected = h.total_words();
    }
    q.partial.words[q.partial.n_words++] = word;
    if (q.partial.n_words == q.expected) launch(p, from_dma && tx_dma_.mode == TxMode::rdma);
}

void Niu::launch(Priority p, bool rdma) {
    TxQueue& q = tx_[uint32_t(p)];
    q.launched.push_back({q.partial, kernel_.now(), rdma});
    q.expected = 0;
    q.partial.n_words = 0;
    ++counters_.messages_launched[uint32_t(p)];
    // The back end sees it once the FIFO flags have crossed into the 40 MHz domain.
    kernel_.schedule_in(sync_time(), [this] { kick_back_end(); });
}

bool Niu::rx_head_visible(Priority p) const {
    const RxQueue& q = rx_[uint32_t(p)];
    return !q.messages.empty() && q.messages.front().visible_at <= kernel_.now();
}

uint32_t Niu::read_rx_word(Priority p) {
    RxQueue& q = rx_[uint32_t(p)];
    if (!rx_head_visible(p))
        throw EmptyQueueError("node " + std::to_string(params_.node_id) + ": read of the " +
                              to_string(p) + "-priority receive queue, which is empty");
    const Message& m = q.messages.front().msg;
    const uint32_t w = m.words[q.read_words++];
    ++counters_.words_read;
    if (q.read_words == m.n_words) {
        pop_rx(p);
        if (p == Priority::high) rx_drain();  // a DMA personality may take the next one
    }
    return w;
}

void Niu::pop_rx(Priority p) {
    RxQueue& q = rx_[uint32_t(p)];
    q.messages.pop_front();
    q.read_words = 0;
    changed();
    port_.receive_space_freed(p);
}

}  // namespace niclab::startx
