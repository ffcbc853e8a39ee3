/* <nlohmann/json.hpp> - the third-party JSON library upstream PyPTO's tests read their cases with.
 * Stub mode always uses it, whatever the include path reaches (a parse never depends on what the machine has installed), and the upstream checkout does not contain the real one: so these fallback declarations of the part tests use (a value that converts to
 * and from anything, indexing, find / at / iteration, parse, dump) keep their files parseable.
 * Nothing in a kernel body depends on them. */
#pragma once
#pragma clang system_header
namespace nlohmann {
class json {
public:
    class iterator {
    public:
        json &operator*() const;
        json *operator->() const;
        iterator &operator++();
        iterator operator++(int);
        bool operator==(const iterator &o) const;
        bool operator!=(const iterator &o) const;
        const std::string &key() const;
        json &value() const;
    };
    using const_iterator = iterator;
    json();
    json(std::nullptr_t);
    template <class T> json(const T &value);
    json(std::initializer_list<json> init);
    template <class T> static json parse(T &&input, std::nullptr_t callback = nullptr, bool allowExceptions = true,
                                         bool ignoreComments = false);
    static json array(std::initializer_list<json> init = {});
    static json object(std::initializer_list<json> init = {});
    template <class T> json &operator=(const T &value);
    template <class K> json &operator[](const K &key);
    template <class K> const json &operator[](const K &key) const;
    template <class K> json &at(const K &key);
    template <class K> const json &at(const K &key) const;
    template <class K> iterator find(const K &key) const;
    template <class K> bool contains(const K &key) const;
    template <class K> size_t count(const K &key) const;
    template <class K, class V> V value(const K &key, const V &defaultValue) const;
    template <class T> T get() const;
    template <class T> void get_to(T &out) const;
    template <class T> operator T() const;
    iterator begin() const;
    iterator end() const;
    json &items() const;
    size_t size() const;
    bool empty() const;
    bool is_array() const;
    bool is_object() const;
    bool is_null() const;
    bool is_number() const;
    bool is_number_integer() const;
    bool is_number_float() const;
    bool is_string() const;
    bool is_boolean() const;
    template <class T> void push_back(const T &value);
    template <class... A> void emplace_back(A &&...args);
    std::string dump(int indent = -1) const;
    template <class T> bool operator==(const T &o) const;
    template <class T> bool operator!=(const T &o) const;
};
std::ostream &operator<<(std::ostream &os, const json &j);
std::istream &operator>>(std::istream &is, json &j);
using ordered_json = json;
} // namespace nlohmann
