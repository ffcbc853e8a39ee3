#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_std.h - a minimal C++ standard library (declarations only).
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own. */
#ifndef POOLCHECK_STUB_STD_H
#define POOLCHECK_STUB_STD_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h> /* as libstdc++'s <string> brings it (its string conversions): getenv, setenv, ... */

namespace std {
using ::size_t;
using ::ptrdiff_t;
using ::int8_t;
using ::int16_t;
using ::int32_t;
using ::int64_t;
using ::uint8_t;
using ::uint16_t;
using ::uint32_t;
using ::uint64_t;
using ::intmax_t;
using ::uintptr_t;
using ::intptr_t;
using nullptr_t = decltype(nullptr);

template <class E> class initializer_list {
    const E *first_;
    size_t count_;
public:
    constexpr initializer_list() noexcept : first_(nullptr), count_(0) {}
    constexpr size_t size() const noexcept { return count_; }
    constexpr const E *begin() const noexcept { return first_; }
    constexpr const E *end() const noexcept { return first_ + count_; }
};

/* type traits used by kernels and by the declarations below */
template <class T, T v> struct integral_constant { static constexpr T value = v; };
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> constexpr bool is_same_v = is_same<A, B>::value;
template <class T> struct is_integral : integral_constant<bool, __is_integral(T)> {};
template <class T> constexpr bool is_integral_v = is_integral<T>::value;
template <class T> struct is_floating_point : integral_constant<bool, __is_floating_point(T)> {};
template <class T> constexpr bool is_floating_point_v = is_floating_point<T>::value;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T &> { using type = T; };
template <class T> struct remove_reference<T &&> { using type = T; };
template <class T> using remove_reference_t = typename remove_reference<T>::type;
template <class T> struct remove_const { using type = T; };
template <class T> struct remove_const<const T> { using type = T; };
template <class T> struct decay { using type = typename remove_const<remove_reference_t<T>>::type; };
template <class T> using decay_t = typename decay<T>::type;
template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;

template <class T> T &&declval() noexcept;
template <class T> constexpr remove_reference_t<T> &&move(T &&v) noexcept { return static_cast<remove_reference_t<T> &&>(v); }
template <class T> constexpr T &&forward(remove_reference_t<T> &v) noexcept { return static_cast<T &&>(v); }
template <class T> constexpr const T &min(const T &a, const T &b) { return b < a ? b : a; }
template <class T> constexpr const T &max(const T &a, const T &b) { return a < b ? b : a; }
template <class T> constexpr T min(initializer_list<T> l);
template <class T> constexpr T max(initializer_list<T> l);
template <class T> void swap(T &a, T &b) noexcept;

template <class T = void> struct less { constexpr bool operator()(const T &a, const T &b) const { return a < b; } };
template <> struct less<void> { template <class A, class B> constexpr bool operator()(const A &a, const B &b) const { return a < b; } };
template <class T = void> struct greater { constexpr bool operator()(const T &a, const T &b) const { return b < a; } };
template <> struct greater<void> { template <class A, class B> constexpr bool operator()(const A &a, const B &b) const { return b < a; } };
template <class T> struct hash { size_t operator()(const T &v) const; };

template <class A, class B> struct pair {
    A first;
    B second;
    pair();
    pair(const A &a, const B &b);
    template <class U, class V> pair(U &&a, V &&b);
    template <class U, class V> pair(const pair<U, V> &o);
};
template <class A, class B> pair<decay_t<A>, decay_t<B>> make_pair(A &&a, B &&b);

template <class T> class reference_wrapper {
    T *ptr_;
public:
    reference_wrapper(T &v) noexcept;
    operator T &() const noexcept;
    T &get() const noexcept;
};
template <class T> reference_wrapper<T> ref(T &v) noexcept;
template <class T> reference_wrapper<const T> cref(const T &v) noexcept;

class string {
public:
    using size_type = size_t;
    static constexpr size_type npos = static_cast<size_type>(-1);
    string();
    string(const char *s);
    string(const char *s, size_type n);
    string(size_type n, char c);
    template <class It, class = decltype(*declval<It &>()), class = decltype(++declval<It &>())> string(It first, It last);
    string(const string &o);
    string(string &&o) noexcept;
    string &operator=(const string &o);
    string &operator=(string &&o) noexcept;
    string &operator=(const char *s);
    string &operator+=(const string &o);
    string &operator+=(const char *s);
    string &operator+=(char c);
    const char *c_str() const;
    const char *data() const;
    size_type size() const;
    size_type length() const;
    bool empty() const;
    char &operator[](size_type i);
    const char &operator[](size_type i) const;
    string substr(size_type pos = 0, size_type n = npos) const;
    size_type find(const string &s, size_type pos = 0) const;
    size_type find(const char *s, size_type pos = 0) const;
    size_type find(char c, size_type pos = 0) const;
    size_type rfind(const string &s, size_type pos = npos) const;
    size_type rfind(const char *s, size_type pos = npos) const;
    size_type rfind(char c, size_type pos = npos) const;
    string &append(const string &s);
    string &append(const char *s, size_type n);
    template <class It, class = decltype(*declval<It &>()), class = decltype(++declval<It &>())> string &append(It first, It last);
    string &assign(const string &s);
    string &assign(const char *s);
    string &assign(const char *s, size_type n);
    void push_back(char c);
    void clear();
    char *begin();
    char *end();
    const char *begin() const;
    const char *end() const;
};
string operator+(const string &a, const string &b);
string operator+(const string &a, const char *b);
string operator+(const char *a, const string &b);
string operator+(const string &a, char b);
bool operator==(const string &a, const string &b);
bool operator==(const string &a, const char *b);
bool operator!=(const string &a, const string &b);
bool operator!=(const string &a, const char *b);
bool operator<(const string &a, const string &b);
string to_string(int v);
string to_string(long v);
string to_string(long long v);
string to_string(unsigned v);
string to_string(unsigned long v);
string to_string(unsigned long long v);
string to_string(double v);
int stoi(const string &s, size_t *idx = nullptr, int base = 10);
long stol(const string &s, size_t *idx = nullptr, int base = 10);
long long stoll(const string &s, size_t *idx = nullptr, int base = 10);
unsigned long stoul(const string &s, size_t *idx = nullptr, int base = 10);
float stof(const string &s, size_t *idx = nullptr);
double stod(const string &s, size_t *idx = nullptr);

/* the iterators of vector, set and map: a class in std, as libstdc++'s are, so that an algorithm
 * called unqualified is found by ADL and an rvalue iterator can be incremented (random access
 * throughout; bodies, never run, as vector's) */
template <class T> class pc_stub_iterator {
    T *p_ = nullptr;
public:
    using value_type = typename remove_const<T>::type;
    using difference_type = ptrdiff_t;
    using pointer = T *;
    using reference = T &;
    pc_stub_iterator() {}
    explicit pc_stub_iterator(T *p) : p_(p) {}
    template <class U, class = enable_if_t<is_same_v<const U, T>>>
    pc_stub_iterator(const pc_stub_iterator<U> &o) : p_(o.base()) {}
    T *base() const { return p_; }
    T &operator*() const { return *p_; }
    T *operator->() const { return p_; }
    T &operator[](ptrdiff_t n) const { return p_[n]; }
    pc_stub_iterator &operator++() { ++p_; return *this; }
    pc_stub_iterator operator++(int) { return pc_stub_iterator(p_++); }
    pc_stub_iterator &operator--() { --p_; return *this; }
    pc_stub_iterator operator--(int) { return pc_stub_iterator(p_--); }
    pc_stub_iterator &operator+=(ptrdiff_t n) { p_ += n; return *this; }
    pc_stub_iterator &operator-=(ptrdiff_t n) { p_ -= n; return *this; }
    pc_stub_iterator operator+(ptrdiff_t n) const { return pc_stub_iterator(p_ + n); }
    pc_stub_iterator operator-(ptrdiff_t n) const { return pc_stub_iterator(p_ - n); }
    friend pc_stub_iterator operator+(ptrdiff_t n, const pc_stub_iterator &it) { return it + n; }
};
template <class A, class B> ptrdiff_t operator-(const pc_stub_iterator<A> &a, const pc_stub_iterator<B> &b) { return a.base() - b.base(); }
template <class A, class B> bool operator==(const pc_stub_iterator<A> &a, const pc_stub_iterator<B> &b) { return a.base() == b.base(); }
template <class A, class B> bool operator!=(const pc_stub_iterator<A> &a, const pc_stub_iterator<B> &b) { return a.base() != b.base(); }
template <class A, class B> bool operator<(const pc_stub_iterator<A> &a, const pc_stub_iterator<B> &b) { return a.base() < b.base(); }
template <class A, class B> bool operator>(const pc_stub_iterator<A> &a, const pc_stub_iterator<B> &b) { return a.base() > b.base(); }
template <class A, class B> bool operator<=(const pc_stub_iterator<A> &a, const pc_stub_iterator<B> &b) { return a.base() <= b.base(); }
template <class A, class B> bool operator>=(const pc_stub_iterator<A> &a, const pc_stub_iterator<B> &b) { return a.base() >= b.base(); }
template <class It> ptrdiff_t distance(It first, It last);
template <class It> It next(It it, ptrdiff_t n = 1);
template <class It> It prev(It it, ptrdiff_t n = 1);
template <class It> void advance(It &it, ptrdiff_t n);

template <class T> class vector {
    /* members have bodies (never run): a vector of a local struct or a lambda type must not be
     * clang's "used but not defined" error */
    T *d_ = nullptr;
    size_t n_ = 0;
public:
    using value_type = T;
    using size_type = size_t;
    using iterator = pc_stub_iterator<T>;
    using const_iterator = pc_stub_iterator<const T>;
    vector() {}
    vector(initializer_list<T> l) : n_(l.size()) {}
    explicit vector(size_type n) : n_(n) {}
    vector(size_type n, const T &) : n_(n) {}
    template <class It, class = enable_if_t<!is_integral_v<It>>> vector(It, It) {}
    vector(const vector &o) : n_(o.n_) {}
    vector(vector &&o) noexcept : n_(o.n_) {}
    vector &operator=(const vector &) { return *this; }
    vector &operator=(vector &&) noexcept { return *this; }
    vector &operator=(initializer_list<T>) { return *this; }
    size_type size() const { return n_; }
    bool empty() const { return n_ == 0; }
    T &operator[](size_type i) { return d_[i]; }
    const T &operator[](size_type i) const { return d_[i]; }
    T &at(size_type i) { return d_[i]; }
    const T &at(size_type i) const { return d_[i]; }
    T &front() { return *d_; }
    const T &front() const { return *d_; }
    T &back() { return *d_; }
    const T &back() const { return *d_; }
    T *data() { return d_; }
    const T *data() const { return d_; }
    iterator begin() { return iterator(d_); }
    iterator end() { return iterator(d_); }
    const_iterator begin() const { return const_iterator(d_); }
    const_iterator end() const { return const_iterator(d_); }
    const_iterator cbegin() const { return const_iterator(d_); }
    const_iterator cend() const { return const_iterator(d_); }
    iterator rbegin() { return iterator(d_); }
    iterator rend() { return iterator(d_); }
    const_iterator rbegin() const { return const_iterator(d_); }
    const_iterator rend() const { return const_iterator(d_); }
    void push_back(const T &) {}
    void push_back(T &&) {}
    template <class... A> T &emplace_back(A &&...) { return *d_; }
    void pop_back() {}
    void reserve(size_type) {}
    void resize(size_type) {}
    void resize(size_type, const T &) {}
    void clear() {}
    iterator insert(const_iterator, const T &) { return iterator(d_); }
    iterator insert(const_iterator, initializer_list<T>) { return iterator(d_); }
    template <class It> iterator insert(const_iterator, It, It) { return iterator(d_); }
    iterator erase(const_iterator) { return iterator(d_); }
};
template <class T> bool operator==(const vector<T> &a, const vector<T> &b);
template <class T> bool operator!=(const vector<T> &a, const vector<T> &b);

template <class T, size_t N> struct array {
    T elems_[N ? N : 1];
    constexpr size_t size() const { return N; }
    T &operator[](size_t i) { return elems_[i]; }
    const T &operator[](size_t i) const { return elems_[i]; }
    T *begin() { return elems_; }
    T *end() { return elems_ + N; }
    const T *begin() const { return elems_; }
    const T *end() const { return elems_ + N; }
    T *data() { return elems_; }
};

template <class K, class C = less<K>> class set {
public:
    using iterator = pc_stub_iterator<const K>;
    using const_iterator = iterator;
    set();
    set(initializer_list<K> l);
    template <class It> set(It first, It last);
    size_t size() const;
    bool empty() const;
    size_t count(const K &k) const;
    iterator find(const K &k) const;
    pair<iterator, bool> insert(const K &k);
    iterator begin() const;
    iterator end() const;
    void clear();
};
template <class K, class H = hash<K>> class unordered_set : public set<K> {
public:
    using set<K>::set;
};
template <class K, class C> bool operator==(const set<K, C> &a, const set<K, C> &b);
template <class K, class C> bool operator!=(const set<K, C> &a, const set<K, C> &b);
template <class K, class H> bool operator==(const unordered_set<K, H> &a, const unordered_set<K, H> &b);
template <class K, class H> bool operator!=(const unordered_set<K, H> &a, const unordered_set<K, H> &b);

/* map and multimap: one form for what they share (lookup, iteration, erasure) */
template <class K, class V> class pc_stub_map_base {
public:
    using key_type = K;
    using mapped_type = V;
    using value_type = pair<const K, V>;
    using iterator = pc_stub_iterator<value_type>;
    using const_iterator = pc_stub_iterator<const value_type>;
    size_t size() const;
    bool empty() const;
    size_t count(const K &k) const;
    iterator find(const K &k);
    const_iterator find(const K &k) const;
    size_t erase(const K &k);
    iterator erase(const_iterator pos);
    iterator begin();
    iterator end();
    const_iterator begin() const;
    const_iterator end() const;
    void clear();
};
template <class K, class V, class C = less<K>> class map : public pc_stub_map_base<K, V> {
public:
    using typename pc_stub_map_base<K, V>::value_type;
    using typename pc_stub_map_base<K, V>::iterator;
    map();
    map(initializer_list<value_type> l);
    V &operator[](const K &k);
    V &at(const K &k);
    const V &at(const K &k) const;
    pair<iterator, bool> insert(const value_type &v);
    template <class... A> pair<iterator, bool> emplace(A &&...args);
};
template <class K, class V, class H = hash<K>> class unordered_map : public map<K, V> {
public:
    using map<K, V>::map;
    void reserve(size_t n);
};
template <class K, class V, class C = less<K>> class multimap : public pc_stub_map_base<K, V> {
public:
    using typename pc_stub_map_base<K, V>::value_type;
    using typename pc_stub_map_base<K, V>::iterator;
    using typename pc_stub_map_base<K, V>::const_iterator;
    multimap();
    multimap(initializer_list<value_type> l);
    pair<iterator, iterator> equal_range(const K &k);
    pair<const_iterator, const_iterator> equal_range(const K &k) const;
    iterator insert(const value_type &v);
    template <class... A> iterator emplace(A &&...args);
};

template <class... T> class tuple {
public:
    tuple();
    tuple(const T &...v);
    template <class... U> tuple(const tuple<U...> &o);
    template <class... U> tuple &operator=(const tuple<U...> &o);
    template <class U1, class U2> tuple &operator=(const pair<U1, U2> &p);
};
template <class T> struct tuple_size;
template <class... T> struct tuple_size<tuple<T...>> : integral_constant<size_t, sizeof...(T)> {};
template <size_t I, class T> struct tuple_element;
template <class H, class... R> struct tuple_element<0, tuple<H, R...>> { using type = H; };
template <size_t I, class H, class... R> struct tuple_element<I, tuple<H, R...>> : tuple_element<I - 1, tuple<R...>> {};
template <size_t I, class... T> typename tuple_element<I, tuple<T...>>::type &get(tuple<T...> &t);
template <size_t I, class... T> const typename tuple_element<I, tuple<T...>>::type &get(const tuple<T...> &t);
template <size_t I, class... T> typename tuple_element<I, tuple<T...>>::type &&get(tuple<T...> &&t);
/* tuple_size<const T> only where tuple_size<T> has a value (a const pair binds to its members) */
template <class T, size_t = tuple_size<T>::value> using pc_stub_has_tuple_size = T;
template <class T> struct tuple_size<const pc_stub_has_tuple_size<T>> : integral_constant<size_t, tuple_size<T>::value> {};
template <size_t I, class T> struct tuple_element<I, const T> { using type = const typename tuple_element<I, T>::type; };
template <class T, size_t N> struct tuple_size<array<T, N>> : integral_constant<size_t, N> {};
template <size_t I, class T, size_t N> struct tuple_element<I, array<T, N>> { using type = T; };
template <size_t I, class T, size_t N> T &get(array<T, N> &a) noexcept;
template <size_t I, class T, size_t N> const T &get(const array<T, N> &a) noexcept;
template <size_t I, class T, size_t N> T &&get(array<T, N> &&a) noexcept;
template <class... T> tuple<T &...> tie(T &...v) noexcept;
template <class... T> tuple<decay_t<T>...> make_tuple(T &&...v);

template <class T> class shared_ptr {
public:
    shared_ptr();
    shared_ptr(nullptr_t);
    template <class U> shared_ptr(const shared_ptr<U> &o);
    T *operator->() const;
    T &operator*() const;
    T *get() const;
    void reset();
    long use_count() const;
    explicit operator bool() const;
};
template <class T, class... A> shared_ptr<T> make_shared(A &&...a);
template <class T, class U> bool operator==(const shared_ptr<T> &a, const shared_ptr<U> &b);
template <class T, class U> bool operator!=(const shared_ptr<T> &a, const shared_ptr<U> &b);
template <class T> bool operator==(const shared_ptr<T> &a, nullptr_t);
template <class T> bool operator!=(const shared_ptr<T> &a, nullptr_t);
template <class T> bool operator==(nullptr_t, const shared_ptr<T> &a);
template <class T> bool operator!=(nullptr_t, const shared_ptr<T> &a);
template <class T, class U> shared_ptr<T> dynamic_pointer_cast(const shared_ptr<U> &p);
template <class T, class U> shared_ptr<T> static_pointer_cast(const shared_ptr<U> &p);
template <class T> class unique_ptr {
public:
    unique_ptr();
    unique_ptr(nullptr_t);
    explicit unique_ptr(T *p);
    T *operator->() const;
    T &operator*() const;
    T *get() const;
    void reset(T *p = nullptr);
    T *release();
    explicit operator bool() const;
};
template <class T> class unique_ptr<T[]> {
public:
    unique_ptr();
    unique_ptr(nullptr_t);
    explicit unique_ptr(T *p);
    T &operator[](size_t i) const;
    T *get() const;
    void reset(T *p = nullptr);
    T *release();
    explicit operator bool() const;
};
template <class T> struct pc_stub_unique_if { using single = unique_ptr<T>; };
template <class T> struct pc_stub_unique_if<T[]> { using array = unique_ptr<T[]>; };
template <class T, class... A> typename pc_stub_unique_if<T>::single make_unique(A &&...a);
template <class T> typename pc_stub_unique_if<T>::array make_unique(size_t n);

struct nullopt_t {
    explicit constexpr nullopt_t(int) {}
};
inline constexpr nullopt_t nullopt{0};
template <class T> class optional {
public:
    optional();
    optional(nullopt_t);
    optional(const T &v);
    bool has_value() const;
    T &value();
    T *operator->();
    T &operator*();
    explicit operator bool() const;
};

template <class Sig> class function;
template <class R, class... A> class function<R(A...)> {
public:
    function();
    template <class F> function(F) {} /* a body (never run): a lambda has no linkage */
    R operator()(A... a) const;
    explicit operator bool() const;
};

class streambuf {
public:
    virtual ~streambuf();
};
class ostream {
public:
    ostream &operator<<(bool v);
    ostream &operator<<(short v);
    ostream &operator<<(unsigned short v);
    ostream &operator<<(int v);
    ostream &operator<<(unsigned int v);
    ostream &operator<<(long v);
    ostream &operator<<(unsigned long v);
    ostream &operator<<(long long v);
    ostream &operator<<(unsigned long long v);
    ostream &operator<<(float v);
    ostream &operator<<(double v);
    ostream &operator<<(long double v);
    ostream &operator<<(const void *p);
    ostream &operator<<(nullptr_t);
    ostream &operator<<(class streambuf *sb);
    ostream &operator<<(ostream &(*manip)(ostream &));
    streambuf *rdbuf() const;
    streambuf *rdbuf(streambuf *sb);
    ostream &flush();
};
ostream &operator<<(ostream &os, char c);
ostream &operator<<(ostream &os, signed char c);
ostream &operator<<(ostream &os, unsigned char c);
ostream &operator<<(ostream &os, const char *s);
ostream &operator<<(ostream &os, const string &s);
ostream &endl(ostream &os);
/* <iomanip>: the manipulators */
struct pc_stub_manip {};
ostream &operator<<(ostream &os, const pc_stub_manip &m);
pc_stub_manip setw(int n);
pc_stub_manip setprecision(int n);
pc_stub_manip setfill(char c);
ostream &fixed(ostream &os);
ostream &scientific(ostream &os);
ostream &hex(ostream &os);
ostream &dec(ostream &os);
ostream &left(ostream &os);
ostream &right(ostream &os);
extern ostream cout;
extern ostream cerr;

class istream {
public:
    template <class T> istream &operator>>(T &v);
    streambuf *rdbuf() const;
    bool good() const;
    bool eof() const;
    explicit operator bool() const;
};
istream &getline(istream &is, string &s);
istream &getline(istream &is, string &s, char delim);
extern istream cin;
class iostream : public istream, public ostream {
public:
    streambuf *rdbuf() const;
};
class stringstream : public iostream {
public:
    stringstream();
    explicit stringstream(const string &s);
    string str() const;
    void str(const string &s);
};
using ostringstream = stringstream;
using istringstream = stringstream;
struct ios {
    using openmode = int;
    static constexpr openmode in = 1, out = 2, binary = 4, app = 8, trunc = 16, ate = 32;
};
using ios_base = ios;
/* ifstream, ofstream and fstream: one form over the stream each extends (in, out, both) */
template <class Stream> class pc_stub_file_stream : public Stream {
public:
    pc_stub_file_stream();
    explicit pc_stub_file_stream(const string &path, ios::openmode mode = 0);
    explicit pc_stub_file_stream(const char *path, ios::openmode mode = 0);
    bool is_open() const;
    void open(const string &path, ios::openmode mode = 0);
    void open(const char *path, ios::openmode mode = 0);
    void close();
};
class ifstream : public pc_stub_file_stream<istream> {
public:
    using pc_stub_file_stream<istream>::pc_stub_file_stream;
};
class ofstream : public pc_stub_file_stream<ostream> {
public:
    using pc_stub_file_stream<ostream>::pc_stub_file_stream;
};
class fstream : public pc_stub_file_stream<iostream> {
public:
    using pc_stub_file_stream<iostream>::pc_stub_file_stream;
};
template <class T> class istreambuf_iterator {
public:
    istreambuf_iterator();
    istreambuf_iterator(istream &is);
    T operator*() const;
    istreambuf_iterator &operator++();
    istreambuf_iterator operator++(int);
    bool operator==(const istreambuf_iterator &o) const;
    bool operator!=(const istreambuf_iterator &o) const;
};
template <class C> class back_insert_iterator {
public:
    explicit back_insert_iterator(C &c);
    back_insert_iterator &operator*();
    back_insert_iterator &operator++();
    back_insert_iterator operator++(int);
    template <class V> back_insert_iterator &operator=(const V &v);
};
template <class C> back_insert_iterator<C> back_inserter(C &c);
/* the algorithms taking a function object have bodies (never run): a lambda has no linkage */
template <class It, class Out, class F> Out transform(It, It, Out out, F) { return out; }
template <class It, class It2, class Out, class F> Out transform(It, It, It2, Out out, F) { return out; }
template <class It, class F> F for_each(It, It, F f) { return f; }
template <class It> void sort(It first, It last);
template <class It, class C> void sort(It, It, C) {}
template <class It> void stable_sort(It first, It last);
template <class It, class C> void stable_sort(It, It, C) {}
template <class It> void reverse(It first, It last);
template <class It, class T> It find(It first, It last, const T &v);
template <class It, class F> It find_if(It, It last, F) { return last; }
template <class It, class T> void fill(It first, It last, const T &v);
template <class It, class T> T accumulate(It first, It last, T init);
template <class It, class T, class F> T accumulate(It, It, T init, F) { return init; }
template <class It, class T> void iota(It first, It last, T v);
/* <numeric>'s gcd and lcm are constexpr: a constant or loop bound written with them is one clang
 * folds (the result type is the arguments' common type; integer promotion stands in for it). */
template <class M, class N> constexpr auto gcd(M m, N n) -> decltype(m + n)
{
    decltype(m + n) a = m < 0 ? -m : m, b = n < 0 ? -n : n;
    while (b != 0) {
        decltype(m + n) t = a % b;
        a = b;
        b = t;
    }
    return a;
}
template <class M, class N> constexpr auto lcm(M m, N n) -> decltype(m + n)
{
    return m == 0 || n == 0 ? 0 : ((m < 0 ? -m : m) / gcd(m, n)) * (n < 0 ? -n : n);
}
template <class It> It max_element(It first, It last);
template <class It> It min_element(It first, It last);
template <class It, class Out> Out copy(It first, It last, Out out);
template <class It, class F> bool all_of(It, It, F) { return true; }
template <class It, class F> bool any_of(It, It, F) { return false; }
template <class It, class T> size_t count(It first, It last, const T &v);
template <class T> constexpr T abs(T v);
template <class T> T ceil(T v);
template <class T> T floor(T v);
template <class T> T sqrt(T v);
template <class T> T pow(T a, T b);
template <class T> struct numeric_limits {
    static constexpr T max() noexcept;
    static constexpr T min() noexcept;
    static constexpr T lowest() noexcept;
    static constexpr T epsilon() noexcept;
    static constexpr T infinity() noexcept;
};
class mutex {
public:
    void lock();
    void unlock();
};
template <class M> class lock_guard {
public:
    explicit lock_guard(M &m);
};

class exception {
public:
    virtual ~exception();
    virtual const char *what() const noexcept;
};
class runtime_error : public exception {
public:
    explicit runtime_error(const string &what);
    explicit runtime_error(const char *what);
};
class invalid_argument : public runtime_error {
public:
    using runtime_error::runtime_error;
};

class type_info;
} // namespace std

/* <any>, <deque>, <queue>, <stack>: the containers and the type-erased value tests use */
namespace std {
class any {
public:
    any();
    any(const any &o);
    template <class T, class = enable_if_t<!is_same_v<decay_t<T>, any>>> any(T &&v);
    any &operator=(const any &o);
    template <class T, class = enable_if_t<!is_same_v<decay_t<T>, any>>> any &operator=(T &&v);
    bool has_value() const noexcept;
    void reset() noexcept;
    const type_info &type() const noexcept;
};
template <class T> T any_cast(const any &a);
template <class T> T any_cast(any &a);
template <class T> const T *any_cast(const any *a) noexcept;
template <class T> T *any_cast(any *a) noexcept;
template <class T, class... A> any make_any(A &&...args);

/* a deque is declared as the vector it resembles, with the ends' own members (bodies never run, as
 * vector's) */
template <class T> class deque : public vector<T> {
public:
    using vector<T>::vector;
    void push_front(const T &) {}
    void push_front(T &&) {}
    template <class... A> T &emplace_front(A &&...) { return this->front(); }
    void pop_front() {}
};
/* the container adaptors: one form for what they share (push, pop, emplace, size) */
template <class T> class pc_stub_adaptor {
public:
    bool empty() const;
    size_t size() const;
    void push(const T &v);
    void push(T &&v);
    template <class... A> void emplace(A &&...args);
    void pop();
};
template <class T, class C = deque<T>> class queue : public pc_stub_adaptor<T> {
public:
    queue();
    T &front();
    const T &front() const;
    T &back();
    const T &back() const;
};
template <class T, class C = vector<T>, class Cmp = less<T>> class priority_queue : public pc_stub_adaptor<T> {
public:
    priority_queue();
    explicit priority_queue(const Cmp &cmp);
    const T &top() const;
};
template <class T, class C = deque<T>> class stack : public pc_stub_adaptor<T> {
public:
    stack();
    T &top();
    const T &top() const;
};
} // namespace std

/* <chrono> and <ratio>: clocks and durations (tests time themselves); the C clock is <time.h>'s */
#include <time.h>
namespace std {
using ::time_t;
using ::tm;
using ::localtime;
using ::strftime;
template <intmax_t N, intmax_t D = 1> struct ratio {
    static constexpr intmax_t num = N;
    static constexpr intmax_t den = D;
};
using nano = ratio<1, 1000000000>;
using micro = ratio<1, 1000000>;
using milli = ratio<1, 1000>;
pc_stub_manip put_time(const tm *t, const char *fmt);
namespace chrono {
template <class Rep, class Period = ratio<1>> class duration {
public:
    using rep = Rep;
    using period = Period;
    constexpr duration();
    template <class R2, class = enable_if_t<is_integral_v<R2> || is_floating_point_v<R2>>>
    constexpr explicit duration(const R2 &r);
    template <class R2, class P2> constexpr duration(const duration<R2, P2> &d);
    constexpr Rep count() const;
};
template <class R, class P> constexpr duration<R, P> operator+(const duration<R, P> &a, const duration<R, P> &b);
template <class R, class P> constexpr duration<R, P> operator-(const duration<R, P> &a, const duration<R, P> &b);
template <class R, class P, class R2> constexpr duration<R, P> operator*(const duration<R, P> &d, const R2 &n);
template <class R, class P> constexpr bool operator<(const duration<R, P> &a, const duration<R, P> &b);
template <class R, class P> constexpr bool operator>(const duration<R, P> &a, const duration<R, P> &b);
template <class R, class P> constexpr bool operator<=(const duration<R, P> &a, const duration<R, P> &b);
template <class R, class P> constexpr bool operator>=(const duration<R, P> &a, const duration<R, P> &b);
template <class R, class P> constexpr bool operator==(const duration<R, P> &a, const duration<R, P> &b);
using nanoseconds = duration<int64_t, nano>;
using microseconds = duration<int64_t, micro>;
using milliseconds = duration<int64_t, milli>;
using seconds = duration<int64_t>;
using minutes = duration<int64_t, ratio<60>>;
using hours = duration<int64_t, ratio<3600>>;
template <class To, class R, class P> constexpr To duration_cast(const duration<R, P> &d);
template <class Clock, class Dur = typename Clock::duration> class time_point {
public:
    using duration = Dur;
    constexpr time_point();
    constexpr explicit time_point(const Dur &d);
    constexpr Dur time_since_epoch() const;
};
template <class C, class D> constexpr D operator-(const time_point<C, D> &a, const time_point<C, D> &b);
template <class C, class D, class R, class P>
constexpr time_point<C, D> operator+(const time_point<C, D> &t, const duration<R, P> &d);
template <class C, class D, class R, class P>
constexpr time_point<C, D> operator-(const time_point<C, D> &t, const duration<R, P> &d);
template <class C, class D> constexpr bool operator<(const time_point<C, D> &a, const time_point<C, D> &b);
template <class C, class D> constexpr bool operator>(const time_point<C, D> &a, const time_point<C, D> &b);
template <class To, class C, class D> constexpr time_point<C, To> time_point_cast(const time_point<C, D> &t);
/* the clocks: one form for what they share (nanosecond ticks, now()) */
template <class Clock, bool Steady> struct pc_stub_clock {
    using rep = int64_t;
    using period = nano;
    using duration = nanoseconds;
    using time_point = chrono::time_point<Clock, nanoseconds>;
    static constexpr bool is_steady = Steady;
    static time_point now() noexcept;
};
struct system_clock : pc_stub_clock<system_clock, false> {
    static time_t to_time_t(const time_point &t) noexcept;
    static time_point from_time_t(time_t t) noexcept;
};
struct steady_clock : pc_stub_clock<steady_clock, true> {};
using high_resolution_clock = steady_clock;
} // namespace chrono
inline namespace literals {
inline namespace chrono_literals {
constexpr chrono::hours operator""h(unsigned long long n);
constexpr chrono::minutes operator""min(unsigned long long n);
constexpr chrono::seconds operator""s(unsigned long long n);
constexpr chrono::milliseconds operator""ms(unsigned long long n);
constexpr chrono::microseconds operator""us(unsigned long long n);
constexpr chrono::nanoseconds operator""ns(unsigned long long n);
} // namespace chrono_literals
} // namespace literals
namespace chrono {
using namespace literals::chrono_literals;
}
namespace this_thread {
template <class R, class P> void sleep_for(const chrono::duration<R, P> &d);
} // namespace this_thread
} // namespace std

/* <random>: the engines and distributions test data is generated with */
namespace std {
class random_device {
public:
    random_device();
    unsigned int operator()();
};
template <class UInt, size_t Bits> class pc_stub_engine {
public:
    using result_type = UInt;
    pc_stub_engine();
    explicit pc_stub_engine(UInt seed);
    void seed(UInt s);
    UInt operator()();
    static constexpr UInt min() { return 0; }
    static constexpr UInt max() { return ~UInt(0); }
};
using mt19937 = pc_stub_engine<uint32_t, 32>;
using mt19937_64 = pc_stub_engine<uint64_t, 64>;
using default_random_engine = mt19937;
template <class T = int> class uniform_int_distribution {
public:
    uniform_int_distribution();
    uniform_int_distribution(T a, T b);
    template <class G> T operator()(G &g);
};
template <class T = double> class uniform_real_distribution {
public:
    uniform_real_distribution();
    uniform_real_distribution(T a, T b);
    template <class G> T operator()(G &g);
};
template <class T = double> class normal_distribution {
public:
    normal_distribution();
    normal_distribution(T mean, T stddev);
    template <class G> T operator()(G &g);
};
class bernoulli_distribution {
public:
    explicit bernoulli_distribution(double p = 0.5);
    template <class G> bool operator()(G &g);
};
} // namespace std

#endif /* POOLCHECK_STUB_STD_H */
